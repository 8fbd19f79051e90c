import Link from 'next/link';

export default function HomePage() {
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Hopscope</h1>
      <p className="text-slate-700">
        Run knowledge-graph grounded reasoning methods over Hetionet and inspect every hop.
      </p>
      <Link className="text-blue-700 underline" href="/kg">
        Browse the knowledge graph
      </Link>
    </section>
  );
}
