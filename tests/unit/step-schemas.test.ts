import { describe, expect, it } from 'vitest';
import { checkStepOutput, parseStepOutput, parseStoredOutput, StepContractError, stepContractIssues } from '@/lib/trace/step-schemas';
import { RecordMarks } from '@/lib/trace/recorded';
import { z } from 'zod';
import { EvidenceRecordSchema, EvidenceRecordsSchema, rowsSchema } from '@/lib/trace/steps/common';

const region = {
  nodes: [
    { nodeId: 'Disease::DOID:2377', name: 'multiple sclerosis', kind: 'Disease', seed: true },
    { nodeId: 'Gene::213', name: 'ALB', kind: 'Gene', seed: false },
  ],
  edges: [{ evidenceId: 'e1', edgeId: 7, sourceId: 'Disease::DOID:2377', metaedge: 'DaG', targetId: 'Gene::213' }],
  facts: [
    {
      id: 'e1',
      text: 'multiple sclerosis associates ALB',
      triple: {
        edgeId: 7,
        sourceId: 'Disease::DOID:2377',
        sourceName: 'multiple sclerosis',
        sourceKind: 'Disease',
        metaedge: 'DaG',
        verb: 'associates',
        targetId: 'Gene::213',
        targetName: 'ALB',
        targetKind: 'Gene',
      },
    },
  ],
  relations: [{ metaedge: 'DaG', verb: 'associates', sourceKind: 'Disease', targetKind: 'Gene' }],
};

describe('step output contracts', () => {
  it('passes a recorded output that fits its kind; a kind without a schema breaks the contract', () => {
    expect(() => checkStepOutput('regram.region', region)).not.toThrow();
    expect(() => checkStepOutput('regram.region', { ...region, extra: 'kinds may grow' })).not.toThrow();
    expect(() => checkStepOutput('no.schema.kind', { anything: 1 })).toThrow(/no step contract/);
  });

  it('reads a stored step by its status: the kind when it succeeded, the reason when skipped, the error when failed', () => {
    expect(parseStoredOutput('regram.region', 'succeeded', region).error).toBeNull();
    expect(parseStoredOutput('regram.guess', 'skipped', { reason: 'param switch is off' }).data).toEqual({ reason: 'param switch is off' });
    expect(parseStoredOutput('regram.region', 'failed', { error: 'boom' }).error).toBeNull();
    expect(parseStoredOutput('regram.region', 'succeeded', { error: 'boom' }).error).toMatch(/nodes/);
  });

  it('refuses, when recording, an output that breaks its contract, naming the field', () => {
    const broken = { ...region, edges: [{ ...region.edges[0], edgeId: 'seven' }] };
    expect(() => checkStepOutput('regram.region', broken)).toThrow(StepContractError);
    expect(() => checkStepOutput('regram.region', broken)).toThrow(/edges/);
  });

  it('checks an evidence record the recorder made where an output first holds it; a broken one, or a copy, is checked every time', () => {
    const record = (ordinal: number, text: unknown) => ({
      channel: 'kg',
      kind: 'triple',
      ref: `edge:${ordinal}`,
      text,
      id: `e${ordinal}`,
      ordinal,
      stepId: null,
      selected: false,
    });
    const good = record(0, 'A treats B');
    const broken = record(1, 5);
    const marks = new RecordMarks();
    marks.madeRecord(good);
    marks.madeRecord(broken);
    const issues = (kind: string, output: unknown) => stepContractIssues(kind, output, undefined, marks);
    expect(issues('channel.kg', [good])).toBeNull();
    // Held again (ReGraM's candidates over its channel's records): the same record passes as it is.
    expect(issues('regram.candidates', { candidates: [], records: [good] }) ?? '').not.toMatch(/records/);
    for (let i = 0; i < 2; i++) expect(issues('channel.kg', [good, broken])).toMatch(/\[1\]\.text/);
    // A copy is not the record the recorder made: checked whole.
    expect(issues('channel.kg', [{ ...good, ordinal: 0.5 }])).toMatch(/\[0\]\.ordinal/);
    // Checked once by this recorder (even if changed after); another recorder's check knows nothing of it, nor does one without marks.
    Object.assign(good, { text: 7 });
    expect(issues('channel.kg', [good])).toBeNull();
    expect(stepContractIssues('channel.kg', [good], undefined, new RecordMarks())).toMatch(/\[0\]\.text/);
    expect(stepContractIssues('channel.kg', [good])).toMatch(/\[0\]\.text/);
  });

  it('checks a list of records as one table: it passes exactly the lists the record schema passes record by record, with the same issues', () => {
    const scores = { anchorTotal: 812, anchor: 0 };
    const record = (ordinal: number, fields: Record<string, unknown> = {}) => ({
      channel: 'kg',
      kind: 'triple',
      ref: `edge:${ordinal}`,
      text: `A ${ordinal} treats B`,
      data: { edgeId: ordinal },
      scores,
      id: `e${ordinal}`,
      ordinal,
      stepId: 's1',
      selected: ordinal % 2 === 0,
      ...fields,
    });
    const breaks: Record<string, unknown>[] = [
      { channel: 'nowhere' },
      { kind: 'rumour' },
      { ref: 7 },
      { text: null },
      { text: undefined },
      { id: 1 },
      { ordinal: 0.5 },
      { ordinal: Number.NaN },
      { stepId: undefined },
      { selected: undefined },
      { selected: 'yes' },
      { scores: { anchor: 'first' } },
      { scores: { anchor: Number.POSITIVE_INFINITY } },
      { scores: [1] },
    ];
    const fits: Record<string, unknown>[] = [{ data: undefined }, { scores: null }, { scores: undefined }, { stepId: null }, { extra: 'kept' }];
    const byRecord = z.array(EvidenceRecordSchema);
    const lists = [
      ...breaks.map((b) => [record(0), record(1), record(2, b), record(3)]),
      ...fits.map((f) => [record(0), record(1, f), record(2)]),
      [record(0), 'not a record', record(1)],
      [record(0), [], record(1)],
      [record(0), null],
      [],
    ];
    for (const list of lists) {
      const table = EvidenceRecordsSchema.safeParse(list);
      const one = byRecord.safeParse(list);
      expect(table.success).toBe(one.success);
      if (!one.success) expect(z.prettifyError(table.error!)).toBe(z.prettifyError(one.error));
    }
    expect(breaks.every((b) => !byRecord.safeParse([record(0, b)]).success)).toBe(true);
  });

  it('checks a list of rows as one table: the lists the row schema passes row by row pass as they are, the others with the same issues', () => {
    const Row = z.object({ id: z.string(), sim: z.number(), selected: z.boolean() });
    const row = (i: number, fields: Record<string, unknown> = {}) => ({ id: `e${i}`, sim: 1 / (i + 1), selected: i === 0, ...fields });
    const lists: unknown[] = [
      [row(0), row(1), row(2)],
      [row(0), row(1, { extra: 'kept' })],
      [],
      [row(0), row(1, { sim: 'high' })],
      [row(0), row(1, { id: undefined })],
      [row(0), row(1, { sim: Number.NaN })],
      [row(0), null],
      'not a list',
    ];
    for (const list of lists) {
      const table = rowsSchema(Row).safeParse(list);
      const one = z.array(Row).safeParse(list);
      expect(table.success).toBe(one.success);
      if (table.success) expect(table.data).toBe(list);
      else expect(z.prettifyError(table.error)).toBe(z.prettifyError(one.error!));
    }
  });

  it("checks a value a recorder's output held before at the same schema once: ReGraM's hop over its region", () => {
    const marks = new RecordMarks();
    const held = structuredClone(region);
    expect(stepContractIssues('regram.region', held, undefined, marks)).toBeNull();
    // The hop holds the region its region step returned (changed after, it stays as first checked); a copy is checked whole.
    const hop = (r: unknown) => ({ hop: 1, region: r });
    Object.assign(held, { edges: 'not edges' });
    expect(stepContractIssues('regram.hop', hop(held), undefined, marks) ?? '').not.toMatch(/region/);
    expect(stepContractIssues('regram.hop', hop({ ...held }), undefined, marks)).toMatch(/region\.edges/);
    // Without the recorder's marks (another run, a renderer), checked whole.
    expect(stepContractIssues('regram.hop', hop(held), undefined, new RecordMarks())).toMatch(/region\.edges/);
    expect(parseStepOutput('regram.region', held).error).toMatch(/edges/);
  });

  it('parses a stored output for a renderer, or says why it cannot', () => {
    const ok = parseStepOutput('regram.region', region);
    expect(ok.data?.facts[0].triple.targetName).toBe('ALB');
    const old = parseStepOutput('regram.mmr', { rows: 'not a table' });
    expect(old.data).toBeNull();
    expect(old.error).toMatch(/rows/);
  });

  it('reads an EIGEN-1 generation recorded before the Table 3 switches (no stage, lane, queryBy), and refuses an unknown splice author', () => {
    const old = {
      proposer: 0,
      text: 'I need X. Wait a minute, … continue my reasoning. ',
      segments: [
        { source: 'model', start: 0, end: 10, call: 0 },
        { source: 'injected', start: 10, end: 50, call: null },
      ],
      windows: [{ start: 0, end: 10, needsRetrieval: true, reason: 'needs X', spliced: true }],
      injections: [
        {
          index: 1,
          query: 'X',
          retrieved: [{ id: 'e1', text: 'X is Y' }],
          aside: 'Wait a minute, …',
          usedIds: ['e1'],
          splice: 'Wait a minute, … ',
          spliceOffset: 10,
          writtenBy: 'injector',
        },
      ],
      evidence: [{ id: 'e1', text: 'X is Y' }],
    };
    expect(parseStepOutput('eigen1.generation', old).data?.injections[0].queryBy).toBeUndefined();
    const bad = { ...old, injections: [{ ...old.injections[0], writtenBy: 'model' }] };
    expect(() => checkStepOutput('eigen1.generation', bad)).toThrow(/writtenBy/);
  });
});
