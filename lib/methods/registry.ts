import type { MethodDefinition, MethodId } from './types';
import { METHOD_IDS } from './types';
import { methodModules } from './all';

const byId = new Map<MethodId, MethodDefinition>(methodModules.map((m) => [m.id, m as MethodDefinition]));

export function getMethod(id: MethodId): MethodDefinition {
  const method = byId.get(id);
  if (!method) throw new Error(`Method ${id} is not available yet`);
  return method;
}

export function listMethods(): MethodDefinition[] {
  return METHOD_IDS.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
