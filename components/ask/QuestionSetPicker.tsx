'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchJson } from '@/lib/api/client';
import type { QuestionChoice, QuestionSetChoice } from '@/lib/eval/question-picker';
import { Badge } from '@/components/ui/Badge';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/EmptyState';
import { ErrorState } from '@/components/ui/ErrorState';
import { Spinner } from '@/components/ui/Spinner';

export interface PickedQuestion {
  setName: string;
  question: QuestionChoice;
}

const PAGE = 50;

/** The stored question sets; open one and pick a question to run it by id (its gold answer scores the run). */
export function QuestionSetPicker({ sets, onPick }: { sets: readonly QuestionSetChoice[]; onPick: (q: PickedQuestion) => void }) {
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <section aria-labelledby="sets-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="border-b border-slate-200 px-4 py-2">
        <h2 id="sets-heading" className="text-sm font-semibold text-slate-900">
          Question sets
        </h2>
      </header>
      <div className="px-4 py-3">
        {sets.length === 0 ? (
          <EmptyState title="No question sets yet">
            Generate BioMedHop-style questions from the graph with <code className="font-mono text-xs">npm run hopscope -- generate</code>, or import MIRAGE,
            MedDDx or PubMedQA with <code className="font-mono text-xs">npm run hopscope -- sets import</code>.
          </EmptyState>
        ) : (
          <ul className="space-y-1" data-testid="question-sets">
            {sets.map((set) => (
              <li key={set.id}>
                <button
                  type="button"
                  aria-expanded={openId === set.id}
                  onClick={() => setOpenId(openId === set.id ? null : set.id)}
                  className={cn(
                    'flex w-full items-center justify-between gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-slate-50',
                    openId === set.id && 'bg-slate-50',
                  )}
                >
                  <span className="min-w-0 truncate font-medium text-slate-900">{set.name}</span>
                  <span className="flex shrink-0 items-center gap-2 text-xs text-slate-600">
                    <Badge>{set.source}</Badge>
                    {set.total.toLocaleString('en-US')} questions
                  </span>
                </button>
                {openId === set.id ? <SetQuestions set={set} onPick={onPick} /> : null}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function SetQuestions({ set, onPick }: { set: QuestionSetChoice; onPick: (q: PickedQuestion) => void }) {
  const query = useQuery({
    queryKey: ['question-sets', set.id, { limit: PAGE }],
    queryFn: ({ signal }) => fetchJson<{ items: QuestionChoice[] }>(`/api/question-sets/${encodeURIComponent(set.id)}?limit=${PAGE}`, { signal }),
    staleTime: 60_000,
  });
  if (query.isPending) return <Spinner label="Loading questions…" className="px-2 py-2" />;
  if (query.isError) return <ErrorState title="The questions could not be loaded" error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <div className="mt-1 mb-2 ml-2 border-l-2 border-slate-200 pl-2">
      {set.description ? <p className="mb-1 text-xs text-slate-600">{set.description}</p> : null}
      <ol className="max-h-72 space-y-1 overflow-y-auto">
        {query.data.items.map((q) => (
          <li key={q.id} className="flex items-start gap-2 text-xs">
            <span className="min-w-0 flex-1 text-slate-800">
              <span className="text-slate-500">#{q.ordinal + 1}</span> {q.text}
              <span className="ml-1 text-slate-500">
                ({q.answerType}
                {q.family ? `, ${q.family}` : ''}
                {q.documents ? `, ${q.documents} document${q.documents > 1 ? 's' : ''}` : ''})
              </span>
            </span>
            <button
              type="button"
              onClick={() => onPick({ setName: set.name, question: q })}
              className="shrink-0 rounded border border-slate-300 px-1.5 py-0.5 font-medium text-blue-800 hover:bg-blue-50"
              data-testid="use-question"
            >
              Use
            </button>
          </li>
        ))}
      </ol>
      {set.total > PAGE ? (
        <p className="mt-1 text-xs text-slate-600">
          Showing the first {PAGE} of {set.total.toLocaleString('en-US')}. Run a whole set with <code className="font-mono">npm run hopscope -- eval</code>.
        </p>
      ) : null}
    </div>
  );
}
