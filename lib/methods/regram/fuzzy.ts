/**
 * The paper's fuzzy matching (Appendix B.2): RapidFuzz's Levenshtein ratio,
 * `fuzz.ratio` = 100 · (1 − indel distance / (|a| + |b|)), where the indel
 * distance counts insertions and deletions (a substitution costs two), i.e.
 * |a| + |b| − 2·LCS(a, b). Compared after lower-casing and collapsing spaces.
 */
export function levenshteinRatio(a: string, b: string): number {
  const x = fold(a);
  const y = fold(b);
  if (!x.length && !y.length) return 100;
  const lcs = longestCommonSubsequence(x, y);
  return Math.round((1000 * (2 * lcs)) / (x.length + y.length)) / 10;
}

const fold = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

function longestCommonSubsequence(a: string, b: string): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], row[j - 1]);
    prev = row;
  }
  return prev[b.length];
}
