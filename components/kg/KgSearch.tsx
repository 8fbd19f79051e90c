'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState, useTransition, type KeyboardEvent } from 'react';
import { kindColor } from '@/components/graph/colors';
import { cn } from '@/components/ui/cn';
import { errorMessage } from '@/components/ui/ErrorState';
import { Spinner } from '@/components/ui/Spinner';
import type { KgNodeDto } from '@/lib/api/kg-types';
import { matchReason } from './match-reason';
import { kgNodeHref } from './paths';
import { searchQueryOptions } from './queries';
import { useDebouncedValue } from './use-debounced-value';

const MIN_CHARS = 2;
const DEBOUNCE_MS = 180;

export interface KgSearchProps {
  /** The loaded graph's node kinds, offered as a filter. */
  kinds: readonly string[];
  /** Larger input for the /kg landing page. */
  size?: 'lg' | 'md';
  autoFocus?: boolean;
  className?: string;
}

/**
 * Typeahead over KG nodes: an ARIA 1.2 combobox with a listbox popup.
 * ↑/↓ move through the suggestions, Enter opens the active one (or the first),
 * Escape closes the list, then clears the input.
 */
export function KgSearch({ kinds, size = 'md', autoFocus = false, className }: KgSearchProps) {
  const router = useRouter();
  const baseId = useId();
  const listboxId = `${baseId}-listbox`;
  const [text, setText] = useState('');
  const [kind, setKind] = useState<string>('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [navigating, startNavigation] = useTransition();

  const term = text.trim();
  const debounced = useDebouncedValue(term, DEBOUNCE_MS);
  const filter = kind ? [kind] : [];
  const enabled = debounced.length >= MIN_CHARS;
  const query = useQuery({ ...searchQueryOptions(debounced, filter), enabled, placeholderData: keepPreviousData });

  const items: KgNodeDto[] = enabled ? (query.data?.items ?? []) : [];
  const settled = enabled && debounced === term && !query.isPlaceholderData && !query.isFetching;
  const showPopup = open && term.length > 0;
  const activeItem = active >= 0 && active < items.length ? items[active] : undefined;

  function go(item: KgNodeDto) {
    setOpen(false);
    setText(item.name);
    startNavigation(() => router.push(kgNodeHref(item.id)));
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setOpen(true);
        if (items.length) setActive((i) => (i + 1) % items.length);
        break;
      case 'ArrowUp':
        event.preventDefault();
        setOpen(true);
        if (items.length) setActive((i) => (i <= 0 ? items.length - 1 : i - 1));
        break;
      case 'Enter': {
        const target = activeItem ?? (settled ? items[0] : undefined);
        if (target) {
          event.preventDefault();
          go(target);
        }
        break;
      }
      case 'Escape':
        if (open && term) {
          setOpen(false);
          setActive(-1);
        } else {
          setText('');
        }
        break;
      default:
        break;
    }
  }

  const inputSize = size === 'lg' ? 'h-12 text-base px-4' : 'h-10 text-sm px-3';

  return (
    <div className={cn('relative', className)}>
      <div className="relative flex gap-2">
        <label htmlFor={`${baseId}-input`} className="sr-only">
          Search the knowledge graph
        </label>
        <input
          id={`${baseId}-input`}
          type="text"
          role="combobox"
          aria-expanded={showPopup}
          aria-controls={listboxId}
          aria-autocomplete="list"
          aria-activedescendant={showPopup && activeItem ? `${baseId}-opt-${active}` : undefined}
          autoComplete="off"
          spellCheck={false}
          autoFocus={autoFocus}
          placeholder={size === 'lg' ? 'Search by name, symbol or id — e.g. multiple sclerosis, IL6' : 'Search the knowledge graph…'}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          className={cn(
            'min-w-0 flex-1 rounded-md border border-slate-300 bg-white text-slate-900 shadow-sm placeholder:text-slate-500',
            'focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none',
            inputSize,
          )}
        />
        {navigating ? <Spinner label="Opening…" className="pointer-events-none absolute top-1/2 right-44 -translate-y-1/2 bg-white pl-2" /> : null}
        <label htmlFor={`${baseId}-kind`} className="sr-only">
          Limit to a node kind
        </label>
        <select
          id={`${baseId}-kind`}
          value={kind}
          onChange={(e) => {
            setKind(e.target.value);
            setActive(-1);
          }}
          className={cn(
            'rounded-md border border-slate-300 bg-white text-slate-800 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none',
            size === 'lg' ? 'h-12 px-3 text-sm' : 'h-10 px-2 text-sm',
          )}
        >
          <option value="">All kinds</option>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </div>

      <div
        className={cn('absolute inset-x-0 top-full z-30 mt-1 overflow-hidden rounded-md border border-slate-200 bg-white shadow-lg', !showPopup && 'hidden')}
      >
        <ul id={listboxId} role="listbox" aria-label="Matching entities" className="max-h-96 overflow-y-auto py-1">
          {items.map((item, i) => (
            <li
              key={item.id}
              id={`${baseId}-opt-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => setActive(i)}
              onClick={() => go(item)}
              className={cn('flex cursor-pointer items-center gap-3 px-3 py-2 text-sm', i === active ? 'bg-blue-50 text-slate-900' : 'text-slate-800')}
            >
              <span aria-hidden className="inline-block size-2.5 shrink-0 rounded-full" style={{ backgroundColor: kindColor(item.kind) }} />
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="truncate font-medium">
                  <Highlighted text={item.name} term={term} />
                </span>
                <span className="truncate text-xs text-slate-600" data-testid="match-reason" data-field={item.match.field} data-how={item.match.how}>
                  matched by {matchReason(item.match)}
                </span>
              </span>
              <span className="shrink-0 text-xs text-slate-600">{item.kind}</span>
              <span className="hidden shrink-0 font-mono text-xs text-slate-500 sm:inline">{item.id}</span>
            </li>
          ))}
        </ul>
        <SearchStatus
          term={term}
          tooShort={term.length < MIN_CHARS}
          pending={term !== debounced || query.isFetching}
          error={query.isError ? query.error : null}
          empty={settled && items.length === 0}
          count={items.length}
        />
      </div>
    </div>
  );
}

function SearchStatus(props: { term: string; tooShort: boolean; pending: boolean; error: unknown; empty: boolean; count: number }) {
  let message: string | null = null;
  let tone = 'text-slate-600';
  if (props.tooShort) message = `Type at least ${MIN_CHARS} characters.`;
  else if (props.error) {
    message = `Search failed: ${errorMessage(props.error)}`;
    tone = 'text-red-800';
  } else if (props.pending && props.count === 0) message = 'Searching…';
  else if (props.empty) message = `No entity matches “${props.term}”. Try another name, a gene symbol or an id.`;
  if (!message) return null;
  return (
    <p role="status" className={cn('border-t border-slate-100 px-3 py-2 text-sm', tone)}>
      {message}
    </p>
  );
}

/** The name with the typed term emphasised; plain text nodes only. */
function Highlighted({ text, term }: { text: string; term: string }) {
  const at = term ? text.toLowerCase().indexOf(term.toLowerCase()) : -1;
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <mark className="rounded-sm bg-amber-100 text-inherit">{text.slice(at, at + term.length)}</mark>
      {text.slice(at + term.length)}
    </>
  );
}
