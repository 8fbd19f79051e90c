// `node scripts/run.mjs <program> [args…]`: runs scripts/<program>.ts from its build under .build/
// (scripts/build.mjs), building it first when any of its sources changed since the last build. If
// it cannot be built, the sources run through tsx, as they would without a build.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, freshProgram, PROGRAMS } from './build.mjs';

const [program] = process.argv.splice(2, 1);
if (!PROGRAMS.includes(program)) {
  console.error(`usage: node scripts/run.mjs <${PROGRAMS.join('|')}> [args…]`);
  process.exit(2);
}

let built = freshProgram(program);
if (!built) {
  try {
    await build();
    built = freshProgram(program);
  } catch (e) {
    console.error(`[build] ${e instanceof Error ? e.message : String(e)}; running scripts/${program}.ts from source`);
  }
}
if (built) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.resolve('scripts', `${program}.ts`)).href);
}
