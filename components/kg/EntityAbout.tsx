import { Card } from '@/components/ui/Card';

export interface EntityAboutProps {
  description?: string | null;
  profiles: readonly { source: string; text: string }[];
  aliases: readonly { alias: string; source: string }[];
}

const ALIASES_SHOWN = 24;

/**
 * Description, profile texts and aliases. Everything from the data is rendered as
 * React text (never as HTML); line breaks in profiles are kept with CSS.
 */
export function EntityAbout({ description, profiles, aliases }: EntityAboutProps) {
  const texts = [
    ...(description ? [{ source: 'description', text: description }] : []),
    ...profiles.filter((p) => p.text.trim() && p.text.trim() !== description?.trim()),
  ];
  const uniqueAliases = dedupeAliases(aliases);
  const shown = uniqueAliases.slice(0, ALIASES_SHOWN);
  const hidden = uniqueAliases.slice(ALIASES_SHOWN);

  return (
    <Card title="About" headingId="about-heading">
      {texts.length === 0 ? (
        <p className="text-sm text-slate-600">No description or profile text is loaded for this entity.</p>
      ) : (
        <div className="space-y-3" data-testid="entity-profile">
          {texts.map((t, i) => (
            <figure key={`${t.source}:${i}`} className="space-y-1">
              <blockquote className="text-sm leading-relaxed whitespace-pre-line text-slate-800">{t.text}</blockquote>
              <figcaption className="text-xs text-slate-500">Source: {t.source}</figcaption>
            </figure>
          ))}
        </div>
      )}

      <h3 className="mt-4 mb-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase">
        Aliases {uniqueAliases.length ? <span className="font-normal normal-case">({uniqueAliases.length})</span> : null}
      </h3>
      {uniqueAliases.length === 0 ? (
        <p className="text-sm text-slate-600">No aliases recorded.</p>
      ) : (
        <div data-testid="entity-aliases">
          <AliasChips aliases={shown} />
          {hidden.length ? (
            <details className="mt-1.5">
              <summary className="cursor-pointer text-sm text-blue-800 select-none">Show {hidden.length} more</summary>
              <AliasChips aliases={hidden} className="mt-1.5" />
            </details>
          ) : null}
        </div>
      )}
    </Card>
  );
}

function AliasChips({ aliases, className }: { aliases: readonly { alias: string; sources: string[] }[]; className?: string }) {
  return (
    <ul className={`flex flex-wrap gap-1.5 ${className ?? ''}`}>
      {aliases.map((a) => (
        <li
          key={a.alias}
          title={`Source: ${a.sources.join(', ')}`}
          className="rounded border border-slate-200 bg-slate-50 px-1.5 py-0.5 text-xs text-slate-800"
        >
          {a.alias}
        </li>
      ))}
    </ul>
  );
}

/** One chip per alias text (case-insensitive), listing every source that gave it. */
export function dedupeAliases(aliases: readonly { alias: string; source: string }[]): { alias: string; sources: string[] }[] {
  const byKey = new Map<string, { alias: string; sources: string[] }>();
  for (const a of aliases) {
    const key = a.alias.trim().toLowerCase();
    if (!key) continue;
    const entry = byKey.get(key);
    if (entry) {
      if (!entry.sources.includes(a.source)) entry.sources.push(a.source);
    } else byKey.set(key, { alias: a.alias.trim(), sources: [a.source] });
  }
  return [...byKey.values()];
}
