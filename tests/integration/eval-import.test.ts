import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getPool } from '../../lib/db/client';
import { importQuestionSet, SetImportError, type ImportSetOptions } from '../../lib/eval/import';
import { getQuestionSet, SetNameTaken } from '../../lib/eval/sets';
import { run as setsCli } from '../../scripts/cli/sets';

const FIXTURES = path.resolve('tests/fixtures/eval');
const fixture = (name: string) => path.join(FIXTURES, name);
/** Set names unique to this run: the test database is shared and never reset. */
const uniqueName = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

afterAll(closeDb);

async function questionDocumentCount(): Promise<number> {
  const { rows } = await getPool().query<{ n: number }>(`select count(*)::int as n from documents where source = 'question'`);
  return rows[0].n;
}

async function importOf(opts: Omit<ImportSetOptions, 'name'>) {
  const set = await importQuestionSet({ ...opts, name: uniqueName(opts.format) });
  return (await getQuestionSet(set.id))!;
}

describe('MIRAGE', () => {
  it('imports one set with the sub-dataset as family, yes/no items keeping their options', async () => {
    const set = await importOf({ format: 'mirage', file: fixture('mirage-sample.json') });
    expect(set.source).toBe('mirage');
    expect(set.license).toMatch(/^see MIRAGE sources/);
    expect(set.counts.byFamily).toEqual({ medqa: 2, medmcqa: 2, pubmedqa: 2, bioasq: 2, mmlu: 1 });
    expect(set.counts.byAnswerType).toEqual({ mcq: 5, yesno: 4 });
    const [first] = set.questions;
    expect(first.answerType).toBe('mcq');
    expect(first.options).toMatchObject({ A: expect.any(String), D: expect.any(String) });
    expect(first.answer).toEqual({ key: 'B', text: 'Tell the attending that he cannot fail to disclose this mistake', aliases: [], nodeIds: [] });
    const bioasq = set.questions.find((q) => q.family === 'bioasq')!;
    expect(bioasq.options).toEqual({ A: 'yes', B: 'no' });
    expect(bioasq.answer).toMatchObject({ key: 'B', text: 'no' });
    expect(bioasq.meta).toEqual({ dataset: 'bioasq', id: '6402c910201352f04a00000c' });
  });

  it('takes the first N of each sub-dataset with a limit', async () => {
    const set = await importOf({ format: 'mirage', file: fixture('mirage-sample.json'), limit: 1 });
    expect(set.counts.byFamily).toEqual({ medqa: 1, medmcqa: 1, pubmedqa: 1, bioasq: 1, mmlu: 1 });
  });

  it('imports nothing from a file with bad items, and names each one', async () => {
    const name = uniqueName('mirage-bad');
    const error = await importQuestionSet({ format: 'mirage', file: fixture('mirage-malformed.json'), name }).catch((e) => e);
    expect(error).toBeInstanceOf(SetImportError);
    expect(error.issues).toEqual([
      { file: fixture('mirage-malformed.json'), at: 'medmcqa/b944ada9-d776-4c2a-9180-3ae5f393f72d', reason: expect.stringContaining('options') },
      { file: fixture('mirage-malformed.json'), at: 'bioasq/6402c910201352f04a00000c', reason: 'the answer is not one of the option keys' },
    ]);
    expect(await getQuestionSet(name)).toBeNull();
  });
});

describe('MedDDx', () => {
  it('splits the options out of the query and sets the family by sim_level_std (gzipped file)', async () => {
    const set = await importOf({ format: 'medddx', file: fixture('medddx-sample.json.gz') });
    expect(set.questions.map((q) => q.family)).toEqual(['Basic', 'Intermediate', 'Expert']);
    const expert = set.questions[2];
    expect(expert.text).toBe(
      'Which genes or proteins are expressed exclusively in the pericardium and not in either the dorsal or ventral regions of the thalamus?',
    );
    expect(expert.options).toEqual({ A: 'ADH1A', B: 'ADH1C', C: 'ADH4', D: 'ADH1B' });
    expect(expert.answer).toMatchObject({ key: 'D', text: 'ADH1B' });
    expect(set.license).toMatch(/KGARevion/);
  });

  it('rejects an item whose query has no options, importing nothing', async () => {
    const error = await importOf({ format: 'medddx', file: fixture('medddx-malformed.json.gz') }).catch((e) => e);
    expect(error).toBeInstanceOf(SetImportError);
    expect(error.issues).toEqual([{ file: fixture('medddx-malformed.json.gz'), at: '#1', reason: expect.stringMatching(/options/) }]);
  });
});

describe('PubMedQA', () => {
  it('imports the test split with its gold, linked to the abstracts already in the corpus', async () => {
    const set = await importOf({
      format: 'pubmedqa',
      file: fixture('pubmedqa-ori_pqal-sample.json'),
      goldFile: fixture('pubmedqa-test_ground_truth-sample.json'),
    });
    expect(set.license).toBe('MIT');
    expect(set.questions.map((q) => [q.meta, q.answer])).toEqual([
      [expect.objectContaining({ pmid: '12377809' }), { key: 'A', text: 'yes', aliases: [], nodeIds: [] }],
      [expect.objectContaining({ pmid: '24577079' }), { key: 'B', text: 'no', aliases: [], nodeIds: [] }],
    ]);
    for (const q of set.questions) {
      expect(q.answerType).toBe('yesno');
      expect(q.options).toEqual({ A: 'yes', B: 'no', C: 'maybe' });
      const { rows } = await getPool().query('select source, external_id from documents where id = any($1)', [q.documentIds]);
      expect(rows).toEqual([{ source: 'pubmedqa', external_id: (q.meta as { pmid: string }).pmid }]);
    }
  });

  it('without a ground truth imports every item on its final decision, in PMID order', async () => {
    const set = await importOf({ format: 'pubmedqa', file: fixture('pubmedqa-ori_pqal-sample.json') });
    expect(set.questions.map((q) => [(q.meta as { pmid: string }).pmid, (q.answer as { text: string }).text])).toEqual([
      ['12377809', 'yes'],
      ['24183388', 'maybe'],
      ['24577079', 'no'],
    ]);
  });

  it('stores the abstract with the question when the corpus does not have it', async () => {
    const entry = Object.values(JSON.parse(fs.readFileSync(fixture('pubmedqa-ori_pqal-sample.json'), 'utf8')))[0] as { CONTEXTS: string[]; LABELS: string[] };
    const file = path.join(os.tmpdir(), `pqa-${randomUUID()}.json`);
    fs.writeFileSync(file, JSON.stringify({ '99999999': entry }));
    const set = await importOf({ format: 'pubmedqa', file });
    const [q] = set.questions;
    const { rows } = await getPool().query<{ source: string; label: string; text: string; has_tsv: boolean }>(
      `select d.source, p.label, p.text, p.tsv is not null as has_tsv from documents d join passages p on p.document_id = d.id where d.id = any($1) order by p.ordinal`,
      [q.documentIds],
    );
    expect(rows.map((r) => [r.source, r.label, r.text, r.has_tsv])).toEqual(entry.CONTEXTS.map((text, i) => ['question', entry.LABELS[i], text, true]));
  });
});

describe('generic JSONL', () => {
  it('imports each answer type, documents and gold nodes', async () => {
    const set = await importOf({ format: 'jsonl', file: fixture('questions.jsonl') });
    expect(set.license).toBe('user-provided');
    expect(set.questions.map((q) => q.answerType)).toEqual(['mcq', 'open', 'count', 'list', 'yesno', 'mcq']);
    const [mcq, open, count, list, yesno, byText] = set.questions;
    expect(mcq.answer).toEqual({ key: 'A', text: 'BRCA1', aliases: [], nodeIds: ['Gene::672'] });
    expect(mcq.meta).toEqual({ id: 'q1', line: 1 });
    expect(open.answer).toEqual({ text: 'breast cancer', aliases: [], nodeIds: ['Disease::DOID:1612'] });
    expect(open.meta).toEqual({ note: 'open answer', id: 'q2', line: 2 });
    expect(count.answer).toMatchObject({ text: '2', count: 2 });
    expect(list.answer).toMatchObject({ list: ['BRCA1', 'BRCA2'], nodeIds: ['Gene::672', 'Gene::675'] });
    expect(byText.answer).toMatchObject({ key: 'B', text: 'Acetylsalicylic acid' });
    expect(set.counts.byFamily).toEqual({ genes: 3, '(none)': 3 });

    expect(yesno.documentIds).toHaveLength(2);
    const { rows } = await getPool().query<{ title: string | null; passages: number }>(
      `select d.title, count(p.id)::int as passages from documents d join passages p on p.document_id = d.id
        where d.id = any($1) group by d.id, d.title order by d.title nulls last`,
      [yesno.documentIds],
    );
    expect(rows).toEqual([
      { title: 'Asthma', passages: 1 },
      { title: null, passages: 1 },
    ]);
  });

  it('imports nothing from a file with bad lines in the middle, and reports each line', async () => {
    const name = uniqueName('jsonl-bad');
    const documentsBefore = await questionDocumentCount();
    const error = await importQuestionSet({ format: 'jsonl', file: fixture('questions-malformed.jsonl'), name }).catch((e) => e);
    expect(error).toBeInstanceOf(SetImportError);
    expect((error as SetImportError).issues.map((i) => [i.at, i.reason])).toEqual([
      ['line 3', 'the answer is neither an option key nor the text of an option'],
      ['line 4', expect.stringMatching(/^not JSON/)],
      ['line 6', expect.stringMatching(/golden_nodes/)],
      ['line 5', 'gold node Disease::DOID:0000000 is not in the KG'],
    ]);
    expect(error.message).toMatch(/nothing was imported/);
    expect(await getQuestionSet(name)).toBeNull();
    expect(await questionDocumentCount()).toBe(documentsBefore);
  });
});

describe('saving under a name', () => {
  it('refuses a name in use, and replaces a set of the same source and name only when asked, with the documents it brought', async () => {
    const name = uniqueName('jsonl-again');
    const first = await importQuestionSet({ format: 'jsonl', file: fixture('questions.jsonl'), name });
    const firstDocs = (await getQuestionSet(first.id))!.questions.flatMap((q) => q.documentIds);
    await expect(importQuestionSet({ format: 'jsonl', file: fixture('questions.jsonl'), name })).rejects.toBeInstanceOf(SetNameTaken);
    expect(await getQuestionSet(first.id)).not.toBeNull();
    const second = await importQuestionSet({ format: 'jsonl', file: fixture('questions.jsonl'), name }, { replace: true });
    expect(second.id).not.toBe(first.id);
    expect(await getQuestionSet(first.id)).toBeNull();
    const { rows } = await getPool().query('select id from documents where id = any($1)', [firstDocs]);
    expect(rows).toEqual([]);
  });

  it('refuses a name held by a set from another source', async () => {
    const name = uniqueName('taken');
    await importQuestionSet({ format: 'jsonl', file: fixture('questions.jsonl'), name });
    await expect(importQuestionSet({ format: 'mirage', file: fixture('mirage-sample.json'), name })).rejects.toBeInstanceOf(SetNameTaken);
  });
});

describe('sets command', () => {
  it('imports and lists sets', async () => {
    const name = uniqueName('cli-medddx');
    expect(await setsCli(['import', '--format', 'medddx', '--file', fixture('medddx-sample.json.gz'), '--name', name, '--limit', '1'])).toBe(0);
    expect((await getQuestionSet(name))?.counts.total).toBe(3);
    expect(await setsCli(['list'])).toBe(0);
  });

  it('exits 2 on usage errors and malformed files, importing nothing', async () => {
    const name = uniqueName('cli-bad');
    expect(await setsCli(['import', '--format', 'jsonl', '--file', fixture('questions-malformed.jsonl'), '--name', name])).toBe(2);
    expect(await getQuestionSet(name)).toBeNull();
    expect(await setsCli(['import', '--format', 'csv', '--file', 'x', '--name', name])).toBe(2);
    expect(await setsCli(['import', '--format', 'jsonl', '--name', name])).toBe(2);
    expect(await setsCli(['import', '--format', 'jsonl', '--file', fixture('no-such-file.jsonl'), '--name', name])).toBe(2);
    expect(await setsCli(['frobnicate'])).toBe(2);
  });
});
