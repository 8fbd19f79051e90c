// How the methods present a cut list to a model (issue 18, part 3): the exact size of each relation a list is cut
// from, read from the KG; what a later step relies on kept citeable; per-option answers of an answer set. Real models'
// notes from the relay runs found each of these missing; here the prompts are read as the scripted server received them.
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '@/lib/db/client';
import { recallTemplate } from '@/lib/llm/templates/generic';
import { checkTemplate, decomposeTemplate, extractTemplate, reasonTemplate } from '@/lib/methods/xr2/templates';
import { executeRun } from '@/lib/runs/executor';
import { getRunRecord, type RunRecord } from '@/lib/runs/read';
import { createRun } from '@/lib/runs/service';
import { reply, scriptedServerForSuite } from '../support/scripted-openai-server';
import { runToSuccess } from '../support/runs';

afterAll(closeDb);

const userOf = (call: RunRecord['modelCalls'][number]) => (call.messages as { content: string }[])[1].content;

/** A side effect many compounds cause: a count no K-triple page shows whole. */
async function muchCausedSideEffect(): Promise<{ id: string; name: string; count: number }> {
  const { rows } = await getPool().query<{ id: string; name: string; count: number }>(
    `select n.id, n.name, count(*)::int count from nodes n join edges e on e.target_id = n.id and e.metaedge = 'CcSE'
      where n.kind = 'Side Effect' and n.name ~ '^[A-Za-z ]+$' group by n.id, n.name having count(*) between 20 and 40 order by n.name limit 1`,
  );
  expect(rows).toHaveLength(1);
  return rows[0];
}

describe('X-R2 over an OpenAI-compatible server: a count question, one relation paged K triples a step', () => {
  let effect: Awaited<ReturnType<typeof muchCausedSideEffect>>;
  scriptedServerForSuite((request) => {
    const [system, user] = request.body.messages as { content: string }[];
    const json = (value: unknown) => reply.ok(JSON.stringify(value));
    const step = `Which compounds cause ${effect.name}?`;
    switch (system.content) {
      case decomposeTemplate.system:
        return json({ subquestions: [step], constraints: [], required_evidence: ['CcSE'], current: step });
      case extractTemplate.system:
        return json({
          entities: [{ mention: effect.name, kind: 'Side Effect' }],
          relations: [{ entity: effect.name, metaedges: ['CcSE'], direction: 'in', targetKind: 'Compound', cue: 'cause', negated: false }],
          answerKind: 'Compound',
          outputFormat: 'count',
          constraints: [],
        });
      case recallTemplate.system:
        return json({ claims: [] });
      case reasonTemplate.system: {
        // As the relay's models did: abstain with a lower bound, citing every compound line it was shown.
        const ids = [...user.content.matchAll(/\[(K\d+)\] .+? –causes→ /g)].map((m) => m[1]);
        const claims = ids.map((id) => ({ text: 'a compound that causes it', evidenceIds: [id] }));
        return json({ answer: [], optionKey: null, count: null, abstain: true, rationale: 'lower bound only', claims, evidenceIds: [] });
      }
      case checkTemplate.system:
        return json({ stop: false, sufficient: false, consistent: true, reason: 'more compounds', missing: ['the remaining compounds'] });
      default:
        return reply.status(500, { message: `unexpected role: ${system.content.slice(0, 40)}` });
    }
  });

  it("states the relation's exact size in the KG beside each cut list, and shows every earlier finding of the relation the step asks, past the cap", async () => {
    effect = await muchCausedSideEffect();
    const question = `How many compounds cause ${effect.name}?`;
    const { id } = await createRun({ method: 'xr2', backend: 'openai', question, params: { tMax: 3, establishedCap: 4 } }, { enqueue: false });
    await executeRun(id);
    const run = await getRunRecord({ id });
    expect(run.status).toBe('succeeded');
    const reasons = run.modelCalls.filter((c) => c.role === 'reason').map(userOf);
    const checks = run.modelCalls.filter((c) => c.role === 'check').map(userOf);
    expect(reasons).toHaveLength(3);
    // The KG's own count of the relation, not a page of it; the check is told the same.
    const total = `Compound –causes→ ${effect.name}: ${effect.count} in the KG (5 shown)`;
    for (const p of [...reasons, ...checks]) expect(p).toContain(total);

    // Iteration 3 asks the relation iterations 1 and 2 paged through: their ten lines are all listed, though the cap is 4.
    const cited = reasons.slice(0, 2).flatMap((p) => [...p.split('KG triples of this step KG_t')[1].matchAll(/\[(K\d+)\] .+? –causes→ /g)].map((m) => m[1]));
    expect(new Set(cited).size).toBe(10);
    const established = reasons[2].split('Established in earlier steps')[1].split('\n\n')[0];
    for (const k of cited) expect(established).toContain(`[${k}]`);
    expect(established).not.toMatch(/showing \d+ of/);
  });
});

describe('an answer set with options, aids on: each option said in or out of the set, however far its names are cut', () => {
  it('tests every option of a multiple-choice question over a chain against the whole set', async () => {
    // Genes of a chain too long to name in full; the options are genes, one per letter, wherever they fall alphabetically.
    const question = 'Which gene is associated with a disease that Metformin treats?';
    const { rows } = await getPool().query<{ name: string }>(
      `select g.name from edges t join edges a on a.source_id = t.target_id and a.metaedge = 'DaG' join nodes g on g.id = a.target_id
        join nodes c on c.id = t.source_id where c.name = 'Metformin' and t.metaedge = 'CtD' group by g.name order by g.name desc limit 1`,
    );
    const { rows: outside } = await getPool().query<{ name: string }>(
      `select name from nodes where kind = 'Gene' and name ~ '^[A-Z][A-Z0-9]+$' and degree between 1 and 5 order by name limit 1`,
    );
    const options = { A: outside[0].name, B: rows[0].name };
    const run = await runToSuccess({ method: 'kg-rag', question, options, switches: { aids: true } });
    const sets = run.evidence.filter((e) => e.kind === 'set');
    expect(sets.length).toBeGreaterThan(0);
    const text = sets[0].text;
    expect(text).toContain(`A) ${options.A} is not in the set`);
    expect(text).toContain(`B) ${options.B} is in the set`);
  });
});
