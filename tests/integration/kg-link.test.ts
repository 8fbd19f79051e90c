import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '../../lib/db/client';
import { explainLinks, KnowledgeLookups, linkEntities, linkMention, nodeProfiles, normaliseName, type EntityLink, type LinkReport } from '../../lib/kg';
import { prepareLinking } from '../../lib/kg/link';
import { spellingIndex } from '../../lib/kg/linking/spelling-index';
import { readAliasesOf } from '../../lib/kg/linking/store';
import { searchAliasesOf } from '../../lib/kg/store';
import { exactCandidates, type LinkCandidate } from '../../lib/kg/store/link-sql';

afterAll(closeDb);

const MS = 'Disease::DOID:2377';
const CROHN = 'Disease::DOID:8778';
const T2D = 'Disease::DOID:9352';
const PPARG = 'Gene::5468';

async function compoundId(name: string): Promise<string> {
  const { rows } = await getPool().query<{ id: string }>(`select id from nodes where kind = 'Compound' and lower(name) = lower($1)`, [name]);
  expect(rows).toHaveLength(1);
  return rows[0].id;
}

function expectOffsets(text: string, links: EntityLink[]) {
  for (const l of links) expect(text.slice(l.start, l.end)).toBe(l.mention);
}

describe('the normalisation linking relies on', () => {
  it('is the one the importer stored for every node name', async () => {
    const { rows } = await getPool().query<{ name: string; normalised: string }>('select name, normalised from nodes');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => normaliseName(r.name) !== r.normalised)).toEqual([]);
  });
});

describe('linkEntities', () => {
  it('links both diseases of a shared-neighbour question, with offsets, and nothing else', async () => {
    const text = "Which genes are associated with both multiple sclerosis and Crohn's disease?";
    const links = await linkEntities(text);
    expect(links.map((l) => [l.nodeId, l.mention, l.method])).toEqual([
      [MS, 'multiple sclerosis', 'exact'],
      [CROHN, "Crohn's disease", 'exact'],
    ]);
    expectOffsets(text, links);
  });

  it('links a disease and a gene symbol', async () => {
    const text = 'What compound treats type 2 diabetes mellitus and binds PPARG?';
    const links = await linkEntities(text);
    expect(links.map((l) => l.nodeId)).toEqual([T2D, PPARG]);
    expectOffsets(text, links);
  });

  it('handles case, hyphens and possessives', async () => {
    const upper = await linkEntities('Which genes are associated with MULTIPLE SCLEROSIS and CROHN’S DISEASE?');
    expect(upper.map((l) => l.nodeId)).toEqual([MS, CROHN]);
    const hyphen = await linkEntities('Drugs for type-2 diabetes mellitus');
    expect(hyphen.map((l) => l.nodeId)).toEqual([T2D]);
    expect(hyphen[0].mention).toBe('type-2 diabetes mellitus');
  });

  it('finds a misspelt mention by fuzzy matching', async () => {
    const text = 'Does metformn treat type 2 diabetes mellitus?';
    const links = await linkEntities(text);
    const metformin = await compoundId('metformin');
    expect(links.map((l) => l.nodeId)).toEqual([metformin, T2D]);
    expect(links[0]).toMatchObject({ mention: 'metformn', method: 'fuzzy' });
    expect(links[0].score).toBeGreaterThan(0.45);
    expect(links[0].score).toBeLessThan(1);
    expectOffsets(text, links);
  });

  it('does not link common words, and links short symbols only when written in capitals', async () => {
    const text = 'Is SET expressed in the brain as well as the heart? Then set it to both.';
    const links = await linkEntities(text);
    const mentions = links.map((l) => l.mention);
    expect(mentions).toEqual(['SET', 'brain', 'heart']);
    expect(links[0].start).toBe(3);
  });

  it('links by exact name only when the entity switch is off', async () => {
    const off = { aliases: false, fuzzy: false };
    const links = await linkEntities('Which genes are associated with multiple sclerosis and crohns disease?', off);
    expect(links.map((l) => l.nodeId)).toEqual([MS]);
    expect(links.every((l) => l.method === 'exact')).toBe(true);
  });
});

describe('linking precision', () => {
  const genes = (links: EntityLink[]) => links.filter((l) => l.kind === 'Gene').map((l) => l.mention);

  it('never reads a gene symbol from an English word resembling one, and says why in the report', async () => {
    const text = 'According to the knowledge graph, which drugs treat asthma in the cell?';
    const report = await explainLinks(text);
    expect(genes(report.links)).toEqual([]);
    expect(report.links.map((l) => l.mention)).toEqual(['asthma']);
    // "cell" is a synonym of the gene CEL: turned down, with the reason.
    const cell = report.rejected.filter((r) => r.mention === 'cell' && r.kind === 'Gene');
    expect(cell.length).toBeGreaterThan(0);
    expect(cell.every((r) => /alias|symbol/.test(r.reason))).toBe(true);
  });

  it('reads common words as words, whatever symbols they spell', async () => {
    const links = await linkEntities('It was all set: can it be that metformin has an effect on asthma? All of it can, and it has.');
    expect(genes(links)).toEqual([]);
    expect(links.map((l) => l.mention)).toEqual(expect.arrayContaining(['metformin', 'asthma']));
  });

  it('reads a lower-case symbol only when written as one (digits) or next to "gene"', async () => {
    expect(genes(await linkEntities('Is lilrb2 associated with asthma?'))).toEqual(['lilrb2']);
    expect(genes(await linkEntities('Is mtr associated with asthma?'))).toEqual([]);
    expect(genes(await linkEntities('Is MTR associated with asthma?'))).toEqual(['MTR']);
    expect(genes(await linkEntities('Is the mtr gene associated with asthma?'))).toEqual(['mtr']);
  });

  it('links a long pathway name whole, quoted or not, instead of pieces inside it', async () => {
    for (const text of [
      'Which genes take part in "Erythrocytes take up carbon dioxide and release oxygen"?',
      'Genes in Recruitment of repair and signaling proteins to double-strand breaks?',
    ]) {
      const links = await linkEntities(text);
      expect(links.map((l) => l.kind)).toEqual(['Pathway']);
      expect(links[0].name.split(' ').length).toBeGreaterThanOrEqual(8);
      expectOffsets(text, links);
    }
  });

  it('never reads a gene from a symbol after "my", "our" or "your"', async () => {
    const report = await explainLinks('My PI asked: is MTR associated with asthma?');
    expect(genes(report.links)).toEqual(['MTR']);
    expect(report.rejected.some((r) => r.mention === 'PI' && /follows 'my'/.test(r.reason))).toBe(true);
  });

  it('records the shorter readings a longer one beat', async () => {
    const report = await explainLinks('Which drugs treat type 2 diabetes mellitus?');
    expect(report.links.map((l) => l.nodeId)).toEqual([T2D]);
    expect(report.rejected.some((r) => r.mention === 'diabetes mellitus' && /longer reading 'type 2 diabetes mellitus'/.test(r.reason))).toBe(true);
  });

  it('gives a mention its readings of other kinds, the best as the link', async () => {
    const [, nausea] = await linkEntities('Does metformin cause nausea?');
    expect(nausea).toMatchObject({ mention: 'nausea', kind: 'Symptom' });
    expect(nausea.readings?.map((r) => r.kind)).toEqual(['Side Effect']);
  });

  it('links British spellings and plurals through their American base form', async () => {
    const links = await linkEntities('Which drugs treat anaemia?');
    expect(links.some((l) => l.kind === 'Disease' && l.name === 'anemia' && l.mention === 'anaemia')).toBe(true);
    const fibroids = await linkEntities('Which compounds are utilised for uterine fibroids?');
    expect(fibroids.map((l) => [l.name, l.mention])).toContainEqual(['uterine fibroid', 'uterine fibroids']);
  });
});

describe('linkMention', () => {
  it('links metformin to its compound, exactly and whatever the case', async () => {
    const metformin = await compoundId('metformin');
    for (const mention of ['metformin', 'METFORMIN', 'Metformin']) {
      const [best] = await linkMention(mention);
      expect(best).toMatchObject({ nodeId: metformin, kind: 'Compound', method: 'exact', score: 1 });
    }
  });

  it('ranks the better-connected of two same-name nodes first', async () => {
    const links = await linkMention('multiple sclerosis');
    expect(links[0].nodeId).toBe(MS);
    expect(links.map((l) => l.kind)).toContain('Side Effect');
  });

  it('finds misspellings by trigram similarity, above the threshold only', async () => {
    const metformin = await compoundId('metformin');
    const links = await linkMention('metformn');
    expect(links[0]).toMatchObject({ nodeId: metformin, method: 'fuzzy', matched: 'Metformin' });
    expect(links.every((l) => l.score >= 0.45)).toBe(true);
    expect(await linkMention('metformn', { minSimilarity: 0.9 })).toEqual([]);
  });

  it('respects the kinds filter', async () => {
    const links = await linkMention('multiple sclerosis', { kinds: ['Side Effect'] });
    expect(links.length).toBeGreaterThan(0);
    expect(links.every((l) => l.kind === 'Side Effect')).toBe(true);
  });

  it('with the entity switch off: exact case-insensitive names only, no fuzzy, no aliases', async () => {
    const off = { aliases: false, fuzzy: false };
    const metformin = await compoundId('metformin');
    expect((await linkMention('METFORMIN', off)).map((l) => l.nodeId)).toEqual([metformin]);
    expect(await linkMention('metformn', off)).toEqual([]);
    expect(await linkMention("crohn's  disease", off)).toEqual([]);

    // An alias that is no node's name links with the switch on and not with it off.
    const { rows } = await getPool().query<{ alias: string; node_id: string }>(
      `select a.alias, a.node_id from node_aliases a
        where length(a.alias) >= 6 and not exists (select 1 from nodes n where n.normalised = a.normalised)
        order by a.id limit 1`,
    );
    if (rows.length) {
      const on = await linkMention(rows[0].alias, { fuzzy: false });
      expect(on.some((l) => l.nodeId === rows[0].node_id && l.method === 'alias')).toBe(true);
      expect(await linkMention(rows[0].alias, off)).toEqual([]);
    }
  });
});

describe('KnowledgeLookups: the name lookups a process shares between runs', () => {
  /** Statements the pool sends while `action` runs. */
  async function statementsOf(action: () => Promise<unknown>): Promise<string[]> {
    const pool = getPool();
    const query = pool.query.bind(pool);
    const sent: string[] = [];
    (pool as { query: unknown }).query = (...args: Parameters<typeof query>) => {
      const first = args[0] as unknown;
      sent.push(typeof first === 'string' ? first : String((first as { text?: string }).text));
      return query(...args);
    };
    try {
      await action();
    } finally {
      (pool as { query: unknown }).query = query;
    }
    return sent;
  }

  const QUESTION = 'Which drugs treat multple sclerosis and bind IL7R?';

  it('links a text again from memory, with the same links, and asks again once an import has changed the names', async () => {
    const lookups = new KnowledgeLookups(0);
    let first: EntityLink[] = [];
    const firstSent = await statementsOf(async () => (first = await linkEntities(QUESTION, { lookups })));
    expect(firstSent.filter((s) => /from nodes n/.test(s)).length).toBeGreaterThan(0);
    let again: EntityLink[] = [];
    const againSent = await statementsOf(async () => (again = await linkEntities(QUESTION, { lookups })));
    // Only the check for imports: no name is looked up twice.
    expect(againSent.filter((s) => /from nodes n/.test(s))).toEqual([]);
    expect(again).toEqual(first);
    expect(again).toEqual(await linkEntities(QUESTION));

    // What is read per node is kept too: profiles asked for again come from memory, the same.
    const ids = first.map((l) => l.nodeId);
    const profiles = await lookups.byNode('profiles', ids, nodeProfiles);
    expect(await statementsOf(async () => expect(await lookups.byNode('profiles', ids, nodeProfiles)).toEqual(profiles))).toEqual([
      expect.stringMatching(/kg_imports/),
    ]);
    expect([...profiles.keys()].sort()).toEqual([...new Set(ids)].sort());

    // An import (any kind) starts the memory afresh.
    const { rows } = await getPool().query<{ id: string }>(
      `insert into kg_imports (id, source, version, kind, node_count, edge_count, counts, checksum, files, duration_ms)
       values (gen_random_uuid()::text, 'test:name-lookups', '1', 'profiles', 0, 0, '{}', 'none', '[]', 0) returning id`,
    );
    try {
      const afterSent = await statementsOf(() => linkEntities(QUESTION, { lookups }));
      expect(afterSent.filter((s) => /from nodes n/.test(s)).length).toBeGreaterThan(0);
    } finally {
      await getPool().query('delete from kg_imports where id = $1', [rows[0].id]);
    }
  });

  it('shares a node read in flight with a lookup made meanwhile, and forgets a failed read so the next lookup reads again', async () => {
    const lookups = new KnowledgeLookups();
    const asked: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = async (ids: string[]) => {
      asked.push(ids);
      await gate;
      return new Map(ids.map((id) => [id, `profile of ${id}`]));
    };
    // The second lookup starts while the first read is out: only the node not being read is read again.
    const first = lookups.byNode('test-shared', [MS, CROHN], slow);
    const second = lookups.byNode('test-shared', [CROHN, T2D], slow);
    release();
    expect(await first).toEqual(
      new Map([
        [MS, `profile of ${MS}`],
        [CROHN, `profile of ${CROHN}`],
      ]),
    );
    expect(await second).toEqual(
      new Map([
        [CROHN, `profile of ${CROHN}`],
        [T2D, `profile of ${T2D}`],
      ]),
    );
    expect(asked).toEqual([[MS, CROHN], [T2D]]);

    let down = true;
    const flaky = async (ids: string[]) => {
      asked.push(ids);
      if (down) throw new Error('connection lost');
      return new Map(ids.map((id) => [id, 'read']));
    };
    await expect(lookups.byNode('test-flaky', [PPARG], flaky)).rejects.toThrow('connection lost');
    down = false;
    expect(await lookups.byNode('test-flaky', [PPARG], flaky)).toEqual(new Map([[PPARG, 'read']]));
    expect(asked.slice(2)).toEqual([[PPARG], [PPARG]]);
  });

  it('with every name held in memory links as the database does, with no name read, and reads them again after an import', async () => {
    const lookups = new KnowledgeLookups(0);
    await lookups.holdNames();
    const held = lookups.heldNames();
    expect(held).not.toBeNull();
    // The same candidates per key as the database gives, in its order, for each scope.
    const keys = ['multiple sclerosis', 'il7r', 'metformin', 'g6pd', 'glucose 6 phosphate dehydrogenase', 'no such name at all'];
    const byKey = (cs: LinkCandidate[]) => keys.map((k) => cs.filter((c) => c.key === k));
    expect(held!.candidates(keys, { aliases: true }).map((c) => c.method)).toEqual(expect.arrayContaining(['exact', 'alias']));
    for (const scope of [{ aliases: true }, { aliases: false }, { aliases: true, kinds: ['Gene'] }]) {
      expect(byKey(held!.candidates(keys, scope))).toEqual(byKey(await exactCandidates(keys, scope)));
    }
    const genes = ['Gene::2539', PPARG, 'no such node'];
    expect(held!.aliasesOf(genes, 'ncbi-full-name').size).toBeGreaterThan(0);
    expect(held!.aliasesOf(genes, 'ncbi-full-name')).toEqual(await readAliasesOf(genes, 'ncbi-full-name'));
    for (const wanted of [
      { perNode: 15, minLength: 4 },
      { perNode: 2, minLength: 1 },
    ])
      expect(held!.longestAliases(genes, wanted)).toEqual(await searchAliasesOf(genes, wanted));

    const texts = [QUESTION, 'Which drugs help with G6PD deficiency?', 'Which classes do CYP3A4 inhibitors belong to?', 'Does aspirin treat heart attack?'];
    for (const text of texts) {
      let report: LinkReport | undefined;
      const sent = await statementsOf(async () => (report = await explainLinks(text, { lookups })));
      expect(sent.filter((s) => /from nodes n|from node_aliases where source/.test(s))).toEqual([]);
      expect(report).toEqual(await explainLinks(text));
    }

    const { rows } = await getPool().query<{ id: string }>(
      `insert into kg_imports (id, source, version, kind, node_count, edge_count, counts, checksum, files, duration_ms)
       values (gen_random_uuid()::text, 'test:held-names', '1', 'profiles', 0, 0, '{}', 'none', '[]', 0) returning id`,
    );
    try {
      // The import is noticed by the next lookup, which asks the database while the new names are read.
      const sent = await statementsOf(() => linkEntities('Which genes does ibuprofen bind?', { lookups }));
      expect(sent.filter((s) => /from nodes n/.test(s)).length).toBeGreaterThan(0);
      expect(lookups.heldNames()).not.toBe(held);
      await lookups.holdNames();
      expect(lookups.heldNames()).not.toBeNull();
      expect(lookups.heldNames()).not.toBe(held);
    } finally {
      await getPool().query('delete from kg_imports where id = $1', [rows[0].id]);
    }
  });

  it('prepared (every spelling name held, as a worker does) reads misspellings from memory, as the buckets read from the database give them', async () => {
    const prepared = new KnowledgeLookups(0);
    await prepareLinking(prepared);
    const bucketed = new KnowledgeLookups(0);
    const texts = [
      QUESTION,
      'Does nicotine dependance raise the risk of lung cancr?',
      'Which genes does Aplrazloam bind?',
      'Is blurred vision a side effect of dsmopresain?',
    ];
    for (const text of texts) {
      let report: LinkReport | undefined;
      const sent = await statementsOf(async () => (report = await explainLinks(text, { lookups: prepared })));
      expect(sent.filter((s) => /from spelling_names/.test(s))).toEqual([]);
      expect(report).toEqual(await explainLinks(text, { lookups: bucketed }));
    }
    // Each span's names near it, in the same order, with and without aliases and kinds (what the buckets give, bucket by bucket).
    const keys = ['multple sclerosis', 'vision blurred', 'aplrazloam', 'glucose 6 phosphate dehydrogenase', 'osteo porosis', 'astma'];
    const held = await spellingIndex(prepared, keys);
    const read = await spellingIndex(bucketed, keys);
    let found = 0;
    for (const scope of [{ aliases: true }, { aliases: false }, { aliases: true, kinds: ['Disease'] }])
      for (const key of keys) {
        const near = held.near(key, scope);
        found += near.length;
        expect(near).toEqual(read.near(key, scope));
      }
    expect(found).toBeGreaterThan(0);
  });

  it('lookups that find the knowledge check due at once share one check', async () => {
    const lookups = new KnowledgeLookups(0);
    const texts = ['Which drugs treat multiple sclerosis?', 'Which genes does metformin bind?', 'What causes gout?'];
    await Promise.all(texts.map((text) => linkEntities(text, { lookups })));
    const sent = await statementsOf(() => Promise.all(texts.map((text) => linkEntities(text, { lookups }))));
    expect(sent.filter((s) => /kg_imports/.test(s))).toHaveLength(1);
  });

  it('gives a text linked before with the same options its report again, as a copy of its own, and links it anew once the names are forgotten', async () => {
    const lookups = new KnowledgeLookups();
    const first = await explainLinks(QUESTION, { lookups });
    expect(first.links.length).toBeGreaterThan(0);
    // Other options are another reading: the name-only one finds no misspelling.
    const nameOnly = await explainLinks(QUESTION, { lookups, aliases: false, fuzzy: false });
    expect(nameOnly.links.length).toBeLessThan(first.links.length);

    // A caller that changes its report changes nobody else's.
    first.links.splice(0);
    first.rejected.push(first.rejected[0] ?? { mention: 'x', start: 0, end: 1, nodeId: 'x', name: 'x', kind: 'x', matched: 'x', method: 'exact', reason: 'x' });
    let again = await explainLinks(QUESTION, { lookups });
    expect(again).toEqual(await explainLinks(QUESTION));
    expect(again.links.length).toBeGreaterThan(0);

    lookups.forgetKeys();
    const sent = await statementsOf(async () => (again = await explainLinks(QUESTION, { lookups })));
    expect(sent.filter((s) => /from nodes n/.test(s)).length).toBeGreaterThan(0);
    expect(again).toEqual(await explainLinks(QUESTION));
  });
});
