import { describe, expect, it } from 'vitest';
import { optionsBlock, questionShown } from '@/lib/llm/templates/options-block';

const OPTIONS = { A: 'IL13', B: 'NOD2', C: 'BRCA1' };

describe('a question beside its options block shows each option once', () => {
  it('shows the stem when the options given as a record are also written into the question, in any of the usual forms', () => {
    expect(questionShown('Which gene is linked to asthma? A) IL13 B) NOD2 C) BRCA1', OPTIONS)).toBe('Which gene is linked to asthma?');
    expect(questionShown('Pick the asthma gene. Choices: (a) IL13 (b) NOD2 (c) BRCA1', OPTIONS)).toBe('Pick the asthma gene.');
    expect(questionShown('Which of IL13, NOD2 or BRCA1 is linked to asthma?', OPTIONS)).not.toMatch(/NOD2/);
  });

  it('keeps the question whole with no options inline, or with inline options the record does not hold', () => {
    expect(questionShown('Which gene is linked to asthma?', OPTIONS)).toBe('Which gene is linked to asthma?');
    expect(questionShown('Which gene is linked to asthma? A) IL13 B) TNF C) BRCA1', OPTIONS)).toBe('Which gene is linked to asthma? A) IL13 B) TNF C) BRCA1');
  });

  it('writes the block one option a line, and nothing for no options', () => {
    expect(optionsBlock('Which gene is linked to asthma?', OPTIONS)).toBe('Options:\nA. IL13\nB. NOD2\nC. BRCA1');
    expect(optionsBlock('Which gene is linked to asthma?', null)).toBeNull();
    expect(optionsBlock('Which gene is linked to asthma?', {})).toBeNull();
  });

  it('letters options written only into the question, in the block, and shows the stem alone', () => {
    const listed = 'Which disease is treated by drugs in the Psoralens class: pancreatitis, bone cancer, psoriasis, or azoospermia?';
    expect(optionsBlock(listed, null)).toBe('Options:\nA. pancreatitis\nB. bone cancer\nC. psoriasis\nD. azoospermia');
    expect(questionShown(listed, null)).not.toMatch(/azoospermia/);
    const marked = 'Which gene is linked to asthma? (a) IL13 (b) NOD2 (c) BRCA1';
    expect(optionsBlock(marked, {})).toBe('Options:\nA. IL13\nB. NOD2\nC. BRCA1');
    expect(questionShown(marked, null)).toBe('Which gene is linked to asthma?');
  });
});
