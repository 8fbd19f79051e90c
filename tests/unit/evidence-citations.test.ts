import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CitationIndex, citationsOf } from '@/lib/channels/citations';
import { calibrateOn, coverage, relevanceOf } from '@/lib/channels/doc-relevance';
import { tripleText } from '@/lib/channels/kg-text';
import { boundaryBefore, withoutRepeat } from '@/lib/llm/stream';
import type { EvidenceRecord } from '@/lib/trace/types';

function record(channel: EvidenceRecord['channel'], kind: EvidenceRecord['kind'], ref: string, text: string): EvidenceRecord {
  return { id: randomUUID(), ordinal: 0, stepId: null, selected: false, channel, kind, ref, text };
}

describe('citation ids', () => {
  const triple = record('kg', 'triple', 'edge:7', 'Metformin (Compound) –treats→ type 2 diabetes mellitus (Disease)');
  const again = record('kg', 'triple', 'edge:7', triple.text); // the same edge, retrieved in a later iteration
  const other = record('kg', 'triple', 'edge:8', 'Metformin (Compound) –binds→ PRKAB1 (Gene)');
  const passage = record('doc', 'passage', 'passage:p1:0-40', 'Metformin lowers glucose.');
  const claim = record('param', 'claim', 'claim:3.0', 'Metformin is a biguanide.');
  const profile = record('entity', 'profile', 'node:Compound::DB00331', 'Metformin (Compound): a biguanide.');
  const index = new CitationIndex();
  index.register([triple, again, other, passage, claim, profile]);

  it('gives one short ASCII id per distinct fact, per channel, and the same id to the same fact retrieved twice', () => {
    expect([triple, again, other, passage, claim, profile].map((r) => index.citeOf(r.id))).toEqual(['K1', 'K1', 'K2', 'D1', 'P1', 'E1']);
    expect(index.recordsOf('K1')).toEqual([triple.id, again.id]);
  });

  it('writes record ids as citation ids in a prompt and shows a fact once', () => {
    const prompt = `Evidence:\n[${triple.id}] ${triple.text}\n[${other.id}] ${other.text}\n[${again.id}] ${again.text}\nMemory:\n[${claim.id}] ${claim.text}`;
    const { text, shown } = index.rewrite(prompt);
    expect(text).toBe(`Evidence:\n[K1] ${triple.text}\n[K2] ${other.text}\nMemory:\n[P1] ${claim.text}`);
    expect(text).not.toMatch(/[0-9a-f]{8}-/);
    expect(shown.get('K1')).toBe(triple.id);
  });

  it('maps cited ids back to the records shown, in id fields only', () => {
    const { shown } = index.rewrite(`[${again.id}] x`);
    const parsed = index.resolve(
      { answer: 'E1', evidenceIds: ['K1', '[K2]', 'K99', 'made-up'], claims: [{ text: 'P1', evidenceIds: ['P1'] }], selected: [{ id: 'D1' }] },
      shown,
    );
    expect(parsed).toEqual({
      answer: 'E1',
      evidenceIds: [again.id, other.id, 'K99', 'made-up'],
      claims: [{ text: 'P1', evidenceIds: [claim.id] }],
      selected: [{ id: passage.id }],
    });
  });

  it('derives the same ids from the stored records (a resumed run, a trace view)', () => {
    const ids = citationsOf([triple, again, other, passage, claim, profile]);
    expect(ids.get(again.id)).toBe('K1');
    expect(ids.get(profile.id)).toBe('E1');
  });
});

describe('triple text', () => {
  it('follows the metaedge direction with its verb', () => {
    const t = {
      edgeId: 1,
      sourceId: 'Compound::DB1',
      sourceName: 'Teriflunomide',
      sourceKind: 'Compound',
      metaedge: 'CtD',
      verb: 'treats',
      targetId: 'Disease::D1',
      targetName: 'multiple sclerosis',
      targetKind: 'Disease',
    };
    expect(tripleText(t)).toBe('Teriflunomide (Compound) –treats→ multiple sclerosis (Disease)');
  });
});

describe('document relevance', () => {
  const ms = { nodeId: 'Disease::DOID:2377', name: 'multiple sclerosis', kind: 'Disease' as const, aliases: ['MS'] };
  const egfr = { nodeId: 'Gene::1956', name: 'EGFR', kind: 'Gene' as const, aliases: [] };

  it('a passage shares an entity only by naming it (or an alias), and a symbol only in its own casing', () => {
    expect(relevanceOf('Relapses of multiple sclerosis were fewer.', 'drugs for multiple sclerosis', [ms]).sharedEntities).toEqual(['multiple sclerosis']);
    expect(relevanceOf('Radiotherapy after breast cancer surgery.', 'drugs for multiple sclerosis', [ms]).sharedEntities).toEqual([]);
    expect(relevanceOf('The eGFR fell in the solitary kidney.', 'compounds binding EGFR', [egfr]).sharedEntities).toEqual([]);
    expect(relevanceOf('EGFR mutations in lung cancer.', 'compounds binding EGFR', [egfr]).sharedEntities).toEqual(['EGFR']);
  });

  it('scores coverage of the query content words', () => {
    expect(coverage('therapy dogs in hospitals', 'Therapy dogs visited the hospitals.')).toBe(1);
    expect(coverage('therapy dogs in hospitals', 'Spinal cord tumours.')).toBe(0);
  });

  it('calibrates the threshold on hard negatives, and refuses to on a tiny corpus', () => {
    expect(calibrateOn([], 3).threshold).toBe(Infinity);
    const topics = [
      'insulin glucose diabetes patients clinic trial',
      'tumour radiotherapy breast surgery dose outcome',
      'dogs therapy hospital children anxiety visits',
    ];
    const rows = Array.from({ length: 60 }, (_, i) => ({
      id: `p${i}`,
      documentId: `d${i}`,
      text: `${topics[i % 3]
        .split(' ')
        .slice(0, 4 + (i % 3))
        .join(' ')} study ${i}. More text.`,
    }));
    const c = calibrateOn(rows, 60);
    expect(c.threshold).toBeGreaterThan(0);
    expect(c.threshold).toBeLessThanOrEqual(1);
    expect(c.negatives).toBeGreaterThan(0);
  });

  it('does not take the same text stored in another document for a hard negative', () => {
    // Passages about distinct things that share a few words, each stored twice (a reprint): the copy covers every word.
    const word = (i: number, w: string) => `${w}${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;
    const texts = Array.from(
      { length: 40 },
      (_, i) => `${['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((w) => word(i, w)).join(' ')} patients hospital. More.`,
    );
    const rows = texts.flatMap((text, i) => [
      { id: `p${i}`, documentId: `d${i}`, text },
      { id: `q${i}`, documentId: `e${i}`, text },
    ]);
    const c = calibrateOn(rows, 80);
    expect(c.negatives).toBeGreaterThan(0);
    expect(c.threshold).toBeLessThan(1);
  });
});

describe('EIGEN-1 splices', () => {
  it('cut at a sentence end near the splice point, else at a word boundary, never inside a word', () => {
    const text = 'Teriflunomide inhibits DHODH. It is used in relapsing MS, and patients taking teriflunom';
    const cut = boundaryBefore(text);
    expect(text.slice(0, cut)).toBe('Teriflunomide inhibits DHODH. ');
    const words =
      'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty twentyone twentytwo twentythree twentyfour wi';
    const wordCut = boundaryBefore(words);
    expect(words.slice(0, wordCut).endsWith('twentyfour ')).toBe(true);
    // The text already kept (a prefix) is never cut into: with no boundary after it, nothing is cut.
    expect(boundaryBefore('Done. more', 7)).toBe(10);
    expect(boundaryBefore('Done. more text', 7)).toBe(11);
  });

  it("drop a continuation's restatement of text already written", () => {
    const before = 'The drug reduces relapse rates in multiple sclerosis. Wait a minute, I found that teriflunomide treats MS. ';
    expect(withoutRepeat(before, 'Wait a minute, I found that teriflunomide treats MS. So the answer is teriflunomide.')).toBe(
      'So the answer is teriflunomide.',
    );
    expect(withoutRepeat(before, 'So the answer is teriflunomide.')).toBe('So the answer is teriflunomide.');
  });
});
