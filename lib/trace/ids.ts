/**
 * An id a model copies whole, built from parts that may hold names or
 * metapaths: each run of characters other than letters, digits and `_ . + < > -`
 * becomes one `-`, and the parts are joined by `:`. So no id a prompt shows
 * holds a space, `|`, `@` or `→`, which models split or rewrite.
 */
export function citableId(...parts: (string | number)[]): string {
  return parts
    .map(
      (p) =>
        String(p)
          .replace(/[^A-Za-z0-9_.+<>-]+/g, '-')
          .replace(/^-|-$/g, '') || '-',
    )
    .join(':');
}
