// Evidence that agrees with itself (issue 18, item 3): every method's offline run, aids on, on a few questions
// written here, read back from the database and checked for the ways a trace can contradict itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '@/lib/db/client';
import { metaedgeInfo, sameKind } from '@/lib/llm/offline/metaedges';
import { METHOD_IDS, type MethodAnswer } from '@/lib/methods/types';
import type { RunRecord } from '@/lib/runs/read';
import { kgTriplesOf, pairCheckOf } from '@/lib/trace/evidence-data';
import { runToSuccess } from '../support/runs';

afterAll(closeDb);

/** Two genes that each interact with others but not with each other: a yes/no whose answer is "no". */
async function unjoinedGenes(): Promise<[{ id: string; name: string }, { id: string; name: string }]> {
  const { rows } = await getPool().query<{ id: string; name: string }>(
    `select n.id, n.name from nodes n
       where n.kind = 'Gene' and n.name ~ '^[A-Z][A-Z0-9]+$'
         and (select count(*) from edges e where e.metaedge = 'GiG' and (e.source_id = n.id or e.target_id = n.id)) between 3 and 30
       order by n.name limit 40`,
  );
  for (const a of rows)
    for (const b of rows) {
      if (a.id >= b.id) continue;
      const { rowCount } = await getPool().query('select 1 from edges where (source_id = $1 and target_id = $2) or (source_id = $2 and target_id = $1)', [
        a.id,
        b.id,
      ]);
      if (!rowCount) return [a, b];
    }
  throw new Error('no two genes without an edge between them');
}

const answerOf = (run: RunRecord) => run.answer as unknown as MethodAnswer;
const promptText = (call: RunRecord['modelCalls'][number]) => (call.messages as { content: string }[]).map((m) => m.content).join('\n');
/** What a method mints as an id and shows a model must survive being copied: no space, `|`, `@` or `→`. */
const BAD_ID = /[\s|@→]/;
const KG_NODE_ID = /^[A-Z][A-Za-z ]*::[^\s|@→]+$/;

/** Every value under a key that names ids (id, ids, evidenceIds, unitId, …), anywhere in a step's input or output. */
function idsIn(value: unknown, out: string[] = [], key = ''): string[] {
  if (typeof value === 'string' && /(?:^id|Ids?)$/.test(key)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) idsIn(v, out, key);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) idsIn(v, out, k);
  return out;
}

/** Every object anywhere in `value` (step inputs and outputs, evidence data). */
function objectsIn(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const v of value) objectsIn(v, out);
  else if (value && typeof value === 'object') {
    out.push(value as Record<string, unknown>);
    for (const v of Object.values(value)) objectsIn(v, out);
  }
  return out;
}

/**
 * A direction field read against its metaedge: `out` says the near end (an anchor id's kind) is the metaedge's source
 * and the far end (targetKind, neighborKinds) its target, `in` the other way round. Null where the object has no
 * direction to check. Same-kind metaedges (Gene–Gene) run either way.
 */
function directionFault(o: Record<string, unknown>): string | null {
  const direction = o.direction;
  const metaedges = Array.isArray(o.metaedges) ? (o.metaedges as string[]) : typeof o.metaedge === 'string' ? [o.metaedge] : [];
  if ((direction !== 'out' && direction !== 'in') || !metaedges.length) return null;
  const near = typeof o.anchor === 'string' && o.anchor.includes('::') ? o.anchor.split('::')[0] : null;
  const far = [...(typeof o.targetKind === 'string' ? [o.targetKind] : []), ...(Array.isArray(o.neighborKinds) ? (o.neighborKinds as string[]) : [])];
  for (const m of metaedges) {
    const info = metaedgeInfo(m);
    if (!info || sameKind(info.source, info.target)) continue;
    const [from, to] = direction === 'out' ? [info.source, info.target] : [info.target, info.source];
    if (near && !sameKind(near, from)) return `${JSON.stringify(o)}: ${near} is not the ${direction === 'out' ? 'source' : 'target'} of ${m}`;
    for (const k of far) if (!sameKind(k, to)) return `${JSON.stringify(o)}: ${k} is not the ${direction === 'out' ? 'target' : 'source'} of ${m}`;
  }
  return null;
}

/** The xr2.iteration step (label "Iteration t") a step sits in, if any. */
function iterationOf(run: RunRecord, stepId: string | null): number | null {
  const byId = new Map(run.steps.map((s) => [s.id, s]));
  for (let step = stepId ? byId.get(stepId) : undefined; step; step = step.parentStepId ? byId.get(step.parentStepId) : undefined) {
    const t = /^Iteration (\d+)$/.exec(step.label);
    if (step.kind === 'xr2.iteration' && t) return Number(t[1]);
  }
  return null;
}

function expectAgreement(run: RunRecord) {
  // Ids: the records' own ids, what the answer cites, and every id a step mints.
  const answer = answerOf(run);
  const ids = [
    ...run.evidence.flatMap((e) => [e.id, e.cite]),
    ...answer.evidenceIds,
    ...answer.claims.flatMap((c) => c.evidenceIds),
    ...run.steps.flatMap((s) => [...idsIn(s.input), ...idsIn(s.output)]),
  ];
  // A KG node's own id ("Side Effect::C0018099") is the graph's, kept in the trace; a prompt never shows one.
  expect(ids.filter((id) => BAD_ID.test(id) && !KG_NODE_ID.test(id))).toEqual([]);
  for (const call of run.modelCalls) expect(promptText(call)).not.toMatch(/\b[A-Z][a-z]+ [A-Z][a-z]+::\S/);

  // One answer set per question in a prompt: never two complete sets shown side by side.
  const sets = run.evidence.filter((e) => e.kind === 'set');
  for (const call of run.modelCalls) {
    const text = promptText(call);
    const shown = new Set(sets.filter((e) => text.includes(`[${e.cite}]`)).map((e) => e.ref));
    expect(shown.size, `${call.role}: ${[...shown].join(', ')}`).toBeLessThanOrEqual(1);
  }

  // The operator check agrees with the linking step: it never says nothing anchors a question whose entities were linked.
  const links = run.steps
    .filter((s) => s.kind === 'channel.entity' && s.label === 'Link question entities')
    .flatMap((s) => (s.output as { links?: unknown[] } | null)?.links ?? []);
  if (links.length) for (const s of run.steps) expect(JSON.stringify(s.output ?? null), s.label).not.toContain('no linked entity anchors the question');

  // Counters: a prompt speaks of the iteration it is made in.
  for (const call of run.modelCalls) {
    const t = iterationOf(run, call.stepId);
    if (t === null) continue;
    for (const m of promptText(call).matchAll(/\bIteration (\d+)(?: of at most \d+)?[.:]/g)) expect(Number(m[1]), call.role).toBe(t);
  }

  // Directions: every KG triple runs source → target as its metaedge does; every direction field agrees with its metaedge.
  for (const e of run.evidence.filter((r) => r.kind === 'triple' || r.kind === 'path')) {
    for (const t of kgTriplesOf(e)) {
      const info = metaedgeInfo(t.metaedge)!;
      expect(sameKind(t.sourceKind, info.source) && sameKind(t.targetKind, info.target), `${e.text}`).toBe(true);
    }
  }
  const directed = [...run.steps.flatMap((s) => [...objectsIn(s.input), ...objectsIn(s.output)]), ...objectsIn(run.evidence.map((e) => e.data))].filter(
    (o) => o.direction === 'out' || o.direction === 'in',
  );
  expect(directed.map(directionFault).filter(Boolean)).toEqual([]);
  return { directed: directed.length, sets: sets.length };
}

describe('every method, offline with the aids on, gives evidence that agrees with itself', () => {
  const runs = new Map<string, RunRecord>();
  let pair: Awaited<ReturnType<typeof unjoinedGenes>>;
  const questions = () => ({
    list: 'Which drugs are used to treat gout?',
    stated: 'Is KCNH2 a target that doxazosin binds?',
    absent: `Does ${pair[0].name} interact with ${pair[1].name}?`,
  });

  beforeAll(async () => {
    pair = await unjoinedGenes();
    for (const method of METHOD_IDS)
      for (const [name, question] of Object.entries(questions()))
        runs.set(`${method}/${name}`, await runToSuccess({ method, question, switches: { aids: true } }));
  }, 600_000);

  it.each(METHOD_IDS.flatMap((m) => ['list', 'stated', 'absent'].map((q) => [m, q])))('%s: %s', (method, name) => {
    expectAgreement(runs.get(`${method}/${name}`)!);
  });

  it('checks something: direction fields and answer sets are there to check', () => {
    const seen = [...runs.values()].map(expectAgreement);
    expect(seen.reduce((n, s) => n + s.directed, 0)).toBeGreaterThan(0);
    expect(seen.reduce((n, s) => n + s.sets, 0)).toBeGreaterThan(0);
  });

  it('says "no" on a pair only with a record that its own edges were read and none was found', () => {
    for (const method of METHOD_IDS) {
      const run = runs.get(`${method}/absent`)!;
      if (answerOf(run).text.trim().toLowerCase() !== 'no') continue;
      const checks = run.evidence.filter((e) => e.kind === 'check').map((e) => pairCheckOf(e));
      const asked = [pair[0].id, pair[1].id].sort().join(' ');
      expect(
        checks.some((c) => [c.from.id, c.to.id].sort().join(' ') === asked),
        `${method} says no without reading the pair`,
      ).toBe(true);
    }
    // The methods that read the asked pair (the answer-set aid, BioWeave's claim search) do say no.
    for (const method of ['kg-rag', 'xr2', 'bioweave'])
      expect(
        answerOf(runs.get(`${method}/absent`)!)
          .text.trim()
          .toLowerCase(),
        method,
      ).toBe('no');
  });

  it('says "yes" on a pair the KG joins, citing the edge', () => {
    for (const method of ['kg-rag', 'xr2', 'bioweave']) {
      const run = runs.get(`${method}/stated`)!;
      expect(answerOf(run).text.trim().toLowerCase(), method).toBe('yes');
      const cited = new Set([...answerOf(run).evidenceIds, ...answerOf(run).claims.flatMap((c) => c.evidenceIds)]);
      const edge = run.evidence.filter((e) => cited.has(e.id)).flatMap((e) => (e.kind === 'triple' || e.kind === 'path' ? kgTriplesOf(e) : []));
      expect(
        edge.some((t) => t.metaedge === 'CbG' && t.targetName === 'KCNH2'),
        method,
      ).toBe(true);
    }
  });
});
