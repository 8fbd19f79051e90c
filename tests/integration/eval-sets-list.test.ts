import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPrisma } from '@/lib/db/client';
import { listQuestionSets, saveQuestionSet } from '@/lib/eval/sets';

afterAll(async () => {
  await (await getPrisma()).questionSet.deleteMany({ where: { name: { startsWith: 'sets-list-test-' } } });
  await closeDb();
});

describe('listQuestionSets', () => {
  it('lists every set by name with what the ORM reads for it: counts, meta and UTC timestamps', async () => {
    for (const name of ['sets-list-test-b', 'sets-list-test-a']) {
      await saveQuestionSet({
        name,
        source: 'jsonl',
        license: 'CC0',
        description: `set ${name}`,
        meta: { note: name },
        questions: [
          { text: 'Which drugs treat gout?', answer: { text: 'colchicine', aliases: [], nodeIds: [] }, answerType: 'open', family: 'one-hop' },
          { text: 'Is colchicine an anti-inflammatory?', answer: { text: 'yes', aliases: [], nodeIds: [] }, answerType: 'yesno', family: 'one-hop' },
        ],
      });
    }
    const listed = (await listQuestionSets()).filter((s) => s.name.startsWith('sets-list-test-'));
    expect(listed.map((s) => s.name)).toEqual(['sets-list-test-a', 'sets-list-test-b']);
    for (const set of listed) {
      const stored = await (await getPrisma()).questionSet.findUniqueOrThrow({ where: { id: set.id } });
      expect(set).toMatchObject({ source: 'jsonl', license: 'CC0', description: stored.description, meta: { note: set.name } });
      expect(set.counts).toEqual({
        total: 2,
        byFamily: { 'one-hop': 2 },
        byAnswerType: { open: 1, yesno: 1 },
        byFamilyAndType: { 'one-hop': { open: 1, yesno: 1 } },
      });
      expect(set.createdAt.getTime()).toBe(stored.createdAt.getTime());
      expect(set.updatedAt.getTime()).toBe(stored.updatedAt.getTime());
    }
  });
});
