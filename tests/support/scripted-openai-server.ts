import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { setScriptedModelEnv, startScriptedOpenAIServer, type Script, type ScriptedServer } from './openai-server';

// The scripted OpenAI-protocol server (./openai-server), and a helper for vitest suites.
export * from './openai-server';

/**
 * For a describe block whose runs all go to one scripted server: starts it before
 * the block's tests and points the model configuration at it under a model name of
 * its own (so the response cache never answers for it); restores and closes after.
 */
export function scriptedServerForSuite(script: Script): { readonly server: ScriptedServer } {
  let server: ScriptedServer | null = null;
  let restoreEnv = (): void => undefined;
  beforeAll(async () => {
    server = await startScriptedOpenAIServer(script);
    restoreEnv = setScriptedModelEnv(server, { model: `scripted-${randomUUID()}` });
  });
  afterAll(async () => {
    restoreEnv();
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('the scripted server starts in beforeAll');
      return server;
    },
  };
}
