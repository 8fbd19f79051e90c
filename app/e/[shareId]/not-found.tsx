export default function SharedEvalNotFound() {
  return (
    <section className="mx-auto max-w-2xl space-y-4 py-10" data-testid="eval-not-found">
      <p className="text-sm font-semibold tracking-wide text-slate-500 uppercase">404</p>
      <h1 className="text-2xl font-semibold text-slate-900">Nothing behind this link</h1>
      <p className="text-slate-700">This share link leads to no evaluation. Check that it was copied whole.</p>
    </section>
  );
}
