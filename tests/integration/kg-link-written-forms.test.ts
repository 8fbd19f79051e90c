import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '../../lib/db/client';
import { explainLinks, linkEntities, type EntityLink } from '../../lib/kg';
import { SPELLING_VARIANT, WORDNET_GLOSS, WORDNET_WORD_SYNONYM } from '../../lib/kg/linking/store';
import { asLinked } from '../../lib/llm/offline/linked';
import { readQuestion } from '../../lib/reading';

afterAll(closeDb);

async function nodeId(kind: string, name: string): Promise<string> {
  const { rows } = await getPool().query<{ id: string }>(`select id from nodes where kind = $1 and lower(name) = lower($2)`, [kind, name]);
  expect(rows).toHaveLength(1);
  return rows[0].id;
}

const at = (links: EntityLink[], mention: string) => links.find((l) => l.mention === mention);

async function aliasesOf(source: string, alias: string): Promise<string[]> {
  const { rows } = await getPool().query<{ name: string; kind: string }>(
    `select n.name, n.kind from node_aliases a join nodes n on n.id = a.node_id where a.source = $1 and a.normalised = $2 order by 1, 2`,
    [source, alias],
  );
  return rows.map((r) => `${r.kind}:${r.name}`);
}

describe('names as people also write them (WordNet and spelling)', () => {
  it('imports the other spelling, a word synonym inside a condition name and short definitions, never a verb or a class word', async () => {
    expect(await aliasesOf(SPELLING_VARIANT, 'esophageal hemorrhage')).toEqual(['Side Effect:Oesophageal haemorrhage']);
    expect(await aliasesOf(WORDNET_WORD_SYNONYM, 'pulmonary bleeding')).toEqual(['Side Effect:Pulmonary haemorrhage']);
    expect(await aliasesOf(WORDNET_WORD_SYNONYM, 'bleeding')).toEqual(['Side Effect:Haemorrhage']);
    expect(await aliasesOf(WORDNET_GLOSS, 'hair loss')).toEqual(['Side Effect:Alopecia']);
    expect(await aliasesOf(WORDNET_GLOSS, 'patchy baldness')).toEqual(['Disease:alopecia areata']);
    // A synonym that is also a verb ("harm", "hurt"), an -ing noun further down its synset ("hurting" for pain), a
    // definition headed by a class word ("acute blood disorder") or speaking of no state or body part ("second stage"):
    // none is a name.
    const { rows } = await getPool().query<{ normalised: string }>(`select normalised from node_aliases where source = any($1::text[])`, [
      [WORDNET_WORD_SYNONYM, WORDNET_GLOSS],
    ]);
    const written = new Set(rows.map((r) => r.normalised));
    expect(['brain harm', 'joint hurt', 'hurting', 'acute blood disorder', 'second stage', 'lack of vitality'].filter((w) => written.has(w))).toEqual([]);
  });

  it('links each written form with its own match and a confidence below the name', async () => {
    const links = await linkEntities('Compare esophageal hemorrhage with pulmonary bleeding and loss of hair under warfarin.');
    expect(at(links, 'esophageal hemorrhage')).toMatchObject({ nodeId: await nodeId('Side Effect', 'Oesophageal haemorrhage'), match: 'spelling-variant' });
    expect(at(links, 'pulmonary bleeding')).toMatchObject({ nodeId: await nodeId('Side Effect', 'Pulmonary haemorrhage'), match: 'word-synonym' });
    expect(at(links, 'loss of hair')).toMatchObject({ nodeId: await nodeId('Side Effect', 'Alopecia'), match: 'gloss' });
    const [spelling, synonym, gloss] = ['esophageal hemorrhage', 'pulmonary bleeding', 'loss of hair'].map((m) => at(links, m)!.confidence!);
    expect(1).toBeGreaterThan(spelling);
    expect(spelling).toBeGreaterThan(synonym);
    expect(synonym).toBeGreaterThan(gloss);
  });

  it('spells out a clinical abbreviation before a word synonym ("GI bleeding"), keeping the looser confidence', async () => {
    const links = await linkEntities('Has anyone on naproxen reported lower GI bleeding?');
    const link = at(links, 'lower GI bleeding');
    expect(link).toMatchObject({ nodeId: await nodeId('Side Effect', 'Lower gastrointestinal haemorrhage'), match: 'abbreviation' });
    expect(link!.confidence).toBeLessThanOrEqual(0.8);
  });

  it('reads a condition by its head where modifiers before it make no name, recording them and lowering the confidence', async () => {
    const report = await explainLinks('My aunt has had quite severe hair loss since the new tablets.');
    const link = at(report.links, 'hair loss')!;
    expect(link).toMatchObject({ nodeId: await nodeId('Side Effect', 'Alopecia'), modifiers: 'quite severe' });
    expect(link.confidence).toBeLessThan(0.7);
    // "only" and "not" before a name are no modifiers of it.
    const plain = at(await linkEntities('Does it cause only nausea, or not nausea at all?'), 'nausea')!;
    expect(plain.modifiers).toBeUndefined();
  });

  it('leaves everyday words alone: a short definition of no condition, a verb that shares a synset', async () => {
    for (const text of [
      'The second stage of the audit starts on Monday.',
      'Does the knee joint hurt after running?',
      'A sudden occurrence stopped the meeting.',
    ])
      expect((await linkEntities(text)).filter((l) => l.match === 'gloss' || l.match === 'word-synonym')).toEqual([]);
  });

  it('anchors the reading on the side effect a lay wording names', async () => {
    const text = 'Which medicines are known to bring on GI bleeding?';
    const reading = readQuestion(text, { links: asLinked(await linkEntities(text)) });
    expect(reading.anchors.map((a) => a.entity.nodeId)).toEqual([await nodeId('Side Effect', 'Gastrointestinal haemorrhage')]);
  });
});
