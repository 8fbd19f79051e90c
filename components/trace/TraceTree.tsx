'use client';

import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { formatMs } from '@/components/runs/format';
import { Button } from '@/components/ui/Button';
import { cn } from '@/components/ui/cn';
import type { RunView } from '@/lib/runs/view';
import { ancestorIds, flattenTree, type StepNode, type StepTree } from './tree';

export interface TraceTreeProps {
  run: RunView;
  tree: StepTree;
  selectedOrdinal: number | null;
  onSelectStep: (ordinal: number | null) => void;
}

const STATUS_DOT: Record<string, string> = {
  running: 'bg-blue-600 animate-pulse',
  succeeded: 'bg-emerald-600',
  failed: 'bg-red-600',
  skipped: 'bg-slate-400',
};

/**
 * The trace as a tree in the method's own shape: every step with its status,
 * a headline, and its cost. Selecting a step shows its detail beside the tree
 * (`StepDetail`). Arrow keys move between steps; → and ← open and close nested steps.
 */
export function TraceTree({ run, tree, selectedOrdinal, onSelectStep }: TraceTreeProps) {
  const selected = selectedOrdinal !== null ? (tree.byOrdinal.get(selectedOrdinal) ?? null) : null;
  const [userOpen, setUserOpen] = useState<ReadonlySet<string>>(() => new Set());
  const listRef = useRef<HTMLUListElement>(null);

  // A selected step (from the URL) is always reachable: its ancestors count as open.
  const selectedId = selected?.step.id ?? null;
  const selectedPath = useMemo(() => (selectedId ? ancestorIds(tree, selectedId) : []), [tree, selectedId]);
  const open = useMemo(() => new Set([...userOpen, ...selectedPath]), [userOpen, selectedPath]);

  // Bring the selected step into view (a permalink to a step, or a step picked in the provenance panel).
  // Once per selection, as soon as its row is rendered (its ancestors may open first).
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    if (!selectedId || scrolledTo.current === selectedId) return;
    const row = listRef.current?.querySelector<HTMLElement>(`[data-step-id="${CSS.escape(selectedId)}"]`);
    if (!row) return;
    scrolledTo.current = selectedId;
    row.scrollIntoView({ block: 'nearest' });
  }, [selectedId, open]);

  const toggleOpen = (id: string, value?: boolean) => {
    const opening = value ?? !open.has(id);
    // Closing a step that holds the selected one closes the selection too.
    if (!opening && selectedPath.includes(id)) onSelectStep(null);
    setUserOpen((prev) => {
      const next = new Set(prev);
      if (opening) next.add(id);
      else next.delete(id);
      return next;
    });
  };
  const all = useMemo(
    () =>
      flattenTree(tree.roots)
        .filter((n) => n.children.length)
        .map((n) => n.step.id),
    [tree],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const target = event.target as HTMLElement;
    if (!target.matches('[data-step-row]')) return;
    const rows = [...(listRef.current?.querySelectorAll<HTMLElement>('[data-step-row]') ?? [])];
    const index = rows.indexOf(target);
    const id = target.dataset.stepId!;
    const node = tree.byId.get(id);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      rows[Math.max(0, Math.min(rows.length - 1, index + (event.key === 'ArrowDown' ? 1 : -1)))]?.focus();
    } else if (event.key === 'ArrowRight' && node?.children.length) {
      event.preventDefault();
      toggleOpen(id, true);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      if (node?.children.length && open.has(id)) toggleOpen(id, false);
      else if (node?.step.parentStepId) rows.find((r) => r.dataset.stepId === node.step.parentStepId)?.focus();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      (event.key === 'Home' ? rows[0] : rows.at(-1))?.focus();
    }
  };

  if (!tree.roots.length) {
    return (
      <p className="rounded-md border border-dashed border-slate-300 bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">
        {run.status === 'queued'
          ? 'The run is queued; its steps appear here as they happen.'
          : run.status === 'running'
            ? 'Starting…'
            : 'This run recorded no steps.'}
      </p>
    );
  }

  const renderNodes = (nodes: readonly StepNode[]) =>
    nodes.map((node) => {
      const isOpen = open.has(node.step.id);
      const isSelected = selected?.step.id === node.step.id;
      const s = node.step;
      return (
        <li key={s.id}>
          <div className={cn('flex items-start gap-1 rounded-md', isSelected && 'bg-blue-50 ring-1 ring-blue-200')} style={{ paddingLeft: node.depth * 18 }}>
            {node.children.length ? (
              <button
                type="button"
                tabIndex={-1}
                aria-label={`${isOpen ? 'Hide' : 'Show'} the ${node.children.length} nested steps of ${s.label}`}
                aria-expanded={isOpen}
                onClick={() => toggleOpen(s.id)}
                className="mt-1 flex size-6 shrink-0 items-center justify-center rounded text-slate-600 hover:bg-slate-200"
              >
                <span aria-hidden className={cn('text-xs transition-transform', isOpen && 'rotate-90')}>
                  ▸
                </span>
              </button>
            ) : (
              <span aria-hidden className="size-6 shrink-0" />
            )}
            <button
              type="button"
              data-step-row
              data-step-id={s.id}
              data-ordinal={s.ordinal}
              data-kind={s.kind}
              data-status={s.status}
              aria-current={isSelected ? 'true' : undefined}
              aria-controls={isSelected ? 'step-detail' : undefined}
              onClick={() => onSelectStep(isSelected ? null : s.ordinal)}
              className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-2 gap-y-0.5 rounded px-1.5 py-1 text-left text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              <span aria-hidden className={cn('inline-block size-2 shrink-0 self-center rounded-full', STATUS_DOT[s.status])} />
              <span className="sr-only">{s.status}</span>
              <span className="font-medium text-slate-900">{s.label}</span>
              <span className="font-mono text-[11px] text-slate-500">{s.kind}</span>
              <span className="ml-auto shrink-0 text-[11px] tabular-nums text-slate-500">
                {s.calls ? `${s.calls} call${s.calls === 1 ? '' : 's'} · ` : ''}
                {s.evidence ? `${s.evidence} ev · ` : ''}
                {s.status === 'running' ? 'running' : formatMs(s.durationMs)}
              </span>
              {s.headline ? (
                <span className={cn('min-w-0 basis-full truncate text-xs', s.status === 'failed' ? 'text-red-800' : 'text-slate-600')}>{s.headline}</span>
              ) : null}
            </button>
          </div>
          {isOpen && node.children.length ? <ul className="space-y-0.5">{renderNodes(node.children)}</ul> : null}
        </li>
      );
    });

  return (
    <div className="space-y-2">
      <div className="flex items-center justify-end gap-2">
        <Button size="sm" variant="ghost" onClick={() => setUserOpen(new Set(all))}>
          Expand all
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setUserOpen(new Set());
            if (selectedPath.length) onSelectStep(null);
          }}
        >
          Collapse all
        </Button>
      </div>
      <ul ref={listRef} aria-label="Trace steps" className="space-y-0.5" onKeyDown={onKeyDown} data-testid="trace-timeline">
        {renderNodes(tree.roots)}
      </ul>
    </div>
  );
}
