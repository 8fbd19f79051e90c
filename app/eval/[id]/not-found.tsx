import Link from 'next/link';

export default function EvalNotFound() {
  return (
    <section className="mx-auto max-w-2xl space-y-4 py-10" data-testid="eval-not-found">
      <p className="text-sm font-semibold tracking-wide text-slate-500 uppercase">404</p>
      <h1 className="text-2xl font-semibold text-slate-900">Evaluation not found</h1>
      <p className="text-slate-700">No evaluation has this id. It may have been deleted, or the link is incomplete.</p>
      <p>
        <Link href="/eval" className="text-sm font-medium text-blue-800 underline">
          See all evaluations, or start one
        </Link>
      </p>
    </section>
  );
}
