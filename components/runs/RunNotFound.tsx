import Link from 'next/link';

/** The 404 of the run pages and permalinks: say what was not found and offer the way back. */
export function RunNotFound({ what }: { what: 'run' | 'link' | 'comparison' }) {
  const title = what === 'run' ? 'Run not found' : what === 'comparison' ? 'Comparison not found' : 'Nothing behind this link';
  const body =
    what === 'run'
      ? 'No run has this id. It may have been deleted, or the address was mistyped.'
      : what === 'comparison'
        ? 'One of the two runs does not exist, or no comparison was shared under this link.'
        : 'No run or comparison was shared under this link. Share links are long random codes: check that the whole link was copied.';
  return (
    <section className="mx-auto max-w-2xl space-y-4 py-10" data-testid="not-found">
      <p className="text-sm font-semibold tracking-wide text-slate-500 uppercase">404</p>
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <p className="text-slate-700">{body}</p>
      <p>
        <Link href="/" className="text-sm font-medium text-blue-800 underline">
          Ask a question or open a recent run
        </Link>
      </p>
    </section>
  );
}
