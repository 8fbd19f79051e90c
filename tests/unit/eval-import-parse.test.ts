import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { medddxLevel, splitQuery } from '../../lib/eval/import/medddx';
import { parseJsonl } from '../../lib/eval/import/jsonl';
import { SetImportError } from '../../lib/eval/import/errors';
import { isYesNo } from '../../lib/eval/import/parsed';
import { countQuestions } from '../../lib/eval/sets';

const fixture = (name: string) => path.resolve('tests/fixtures/eval', name);

describe('MedDDx', () => {
  it('splits a query into the question and its lettered options', () => {
    expect(splitQuery('Which gene?\nSecond line.\nA: ADH1A\nB: ADH1C\nC: ADH4\n')).toEqual({
      question: 'Which gene?\nSecond line.',
      options: { A: 'ADH1A', B: 'ADH1C', C: 'ADH4' },
    });
    expect(splitQuery('Which gene?\nA: x\nC: y\n')).toBeNull();
    expect(splitQuery('A: x\nB: y')).toBeNull();
    expect(splitQuery('Which gene? no options')).toBeNull();
  });

  it('splits difficulty at sim_level_std 0.04 and 0.02', () => {
    expect(medddxLevel(0.0487)).toBe('Basic');
    expect(medddxLevel(0.04)).toBe('Intermediate');
    expect(medddxLevel(0.02)).toBe('Intermediate');
    expect(medddxLevel(0.0137)).toBe('Expert');
  });
});

describe('generic JSONL', () => {
  it('infers answer types and resolves MCQ answers given as option text', () => {
    const { questions, issues } = parseJsonl(fixture('questions.jsonl'));
    expect(issues).toEqual([]);
    expect(questions.map((q) => q.answerType)).toEqual(['mcq', 'open', 'count', 'list', 'yesno', 'mcq']);
    expect(questions[5].answer).toMatchObject({ key: 'B', text: 'Acetylsalicylic acid' });
    expect(questions[4].documents?.map((d) => d.sections.length)).toEqual([1, 1]);
  });

  it('reports every bad line, not just the first', () => {
    const { issues } = parseJsonl(fixture('questions-malformed.jsonl'));
    expect(issues.map((i) => i.at)).toEqual(['line 3', 'line 4', 'line 6']);
    expect(new SetImportError(issues).message).toMatch(/^3 problems found; nothing was imported:\n {2}questions-malformed\.jsonl line 3: /);
  });
});

describe('set bookkeeping', () => {
  it('counts questions per family, per answer type and both', () => {
    expect(
      countQuestions([
        { family: 'path', answerType: 'mcq' },
        { family: 'path', answerType: 'open' },
        { family: null, answerType: 'yesno' },
      ]),
    ).toEqual({
      total: 3,
      byFamily: { path: 2, '(none)': 1 },
      byAnswerType: { mcq: 1, open: 1, yesno: 1 },
      byFamilyAndType: { path: { mcq: 1, open: 1 }, '(none)': { yesno: 1 } },
    });
  });

  it('treats options that are only yes/no/maybe as a yes/no question', () => {
    expect(isYesNo({ A: 'yes', B: 'no', C: 'maybe' })).toBe(true);
    expect(isYesNo({ A: 'yes', B: 'no, never' })).toBe(false);
  });
});
