import { KindBadge } from './KindBadge';

export interface EntityHeaderProps {
  node: { id: string; kind: string; name: string; degree: number };
}

/** Name, kind badge, id and degree of an entity. */
export function EntityHeader({ node }: EntityHeaderProps) {
  return (
    <header className="space-y-1.5">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold break-words text-slate-900">{node.name}</h1>
        <KindBadge kind={node.kind} />
      </div>
      <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600">
        <span>
          <span className="sr-only">Identifier: </span>
          <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800" data-testid="entity-id">
            {node.id}
          </code>
        </span>
        <span>
          <strong className="font-semibold text-slate-800 tabular-nums">{node.degree.toLocaleString('en-US')}</strong> edges in the graph
        </span>
      </p>
    </header>
  );
}
