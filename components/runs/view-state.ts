/**
 * The run page's selection state, kept in the URL so that a permalink
 * reproduces the view: `step` (the open step, by ordinal), `view` (the graph's
 * scope: `answer` for the answer's evidence, `all` for the whole run; absent:
 * picked from the run), `graph` (the graph
 * as of a step ordinal; with `only=1`, that step's own evidence), `sel` (the graph element or evidence record whose
 * provenance is shown: `node:<id>`, `edge:<id>`, `ev:<evidence id>`). Pure.
 */
export interface RunViewState {
  step: number | null;
  /** The graph's scope; null: the default the run suggests. A `graph` cut overrides it. */
  scope: GraphScope | null;
  graph: number | null;
  /** With `graph`: only that step's own evidence (its subtree) rather than everything up to it. */
  only: boolean;
  sel: Selection | null;
}

export type GraphScope = 'answer' | 'all';

export type Selection = { type: 'node'; id: string } | { type: 'edge'; id: string } | { type: 'ev'; id: string };

type Getter = { get(name: string): string | null };

const ordinal = (v: string | null): number | null => (v !== null && /^\d{1,6}$/.test(v) ? Number(v) : null);

export function parseSelection(v: string | null): Selection | null {
  if (!v) return null;
  const m = /^(node|edge|ev):(.{1,300})$/s.exec(v);
  return m ? { type: m[1] as Selection['type'], id: m[2] } : null;
}

export function formatSelection(s: Selection): string {
  return `${s.type}:${s.id}`;
}

export function parseViewState(params: Getter): RunViewState {
  const graph = ordinal(params.get('graph'));
  const view = params.get('view');
  return {
    step: ordinal(params.get('step')),
    scope: view === 'answer' || view === 'all' ? view : null,
    graph,
    only: graph !== null && params.get('only') === '1',
    sel: parseSelection(params.get('sel')),
  };
}

/** Same, from a Next page's `searchParams` object. */
export function viewStateFromSearchParams(searchParams: Record<string, string | string[] | undefined>): RunViewState {
  return parseViewState({
    get: (name) => {
      const v = searchParams[name];
      return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
    },
  });
}

/** The query string for a state, keeping unrelated parameters of `base`. */
export function viewStateQuery(state: RunViewState, base = ''): string {
  const params = new URLSearchParams(base);
  for (const key of ['step', 'view', 'graph', 'only', 'sel']) params.delete(key);
  if (state.step !== null) params.set('step', String(state.step));
  if (state.scope !== null) params.set('view', state.scope);
  if (state.graph !== null) params.set('graph', String(state.graph));
  if (state.graph !== null && state.only) params.set('only', '1');
  if (state.sel) params.set('sel', formatSelection(state.sel));
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}
