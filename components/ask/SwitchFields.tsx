'use client';

import { CHANNEL_COLORS } from '@/components/graph/colors';
import { CHANNELS, type ChannelName } from '@/lib/trace/types';

export type SwitchValues = Record<ChannelName, boolean>;

export interface SwitchState {
  switches: SwitchValues;
  kgShuffle: boolean;
  kgShuffleSeed: number;
}

const HELP: Record<ChannelName, string> = {
  doc: 'attached documents and full-text search over the corpus',
  entity: 'alias, synonym and fuzzy linking; entity profiles',
  kg: 'any read of KG edges: neighbours, paths, regions',
  param: "the model's own background knowledge (a separate recall step)",
  web: 'web search (offline: a recorded evidence bundle)',
  aids: "Hopscope's aids beyond the paper (question reader, answer sets, option tests); off runs the paper's method",
};

/**
 * The five knowledge switches, the aids switch and X-R2's kgShuffle control as form fields
 * (`switches`, `switch.<channel>`, `kgShuffle`, `kgShuffleSeed`; see lib/runs/form.ts).
 */
export function SwitchFields({ value, onChange, idPrefix }: { value: SwitchState; onChange: (next: SwitchState) => void; idPrefix: string }) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-semibold text-slate-900">Knowledge switches and aids</legend>
      <input type="hidden" name="switches" value="1" />
      <div className="grid gap-1.5 sm:grid-cols-2">
        {CHANNELS.map((c) => (
          <label key={c} className="flex items-start gap-2 rounded-md border border-slate-200 px-2 py-1.5 text-sm hover:bg-slate-50">
            <input
              type="checkbox"
              name={`switch.${c}`}
              id={`${idPrefix}-switch-${c}`}
              checked={value.switches[c]}
              onChange={(e) => onChange({ ...value, switches: { ...value.switches, [c]: e.target.checked } })}
              className="mt-0.5 size-4"
            />
            <span>
              <span className="inline-flex items-center gap-1.5 font-medium text-slate-900">
                <span aria-hidden className="inline-block size-2 rounded-full" style={{ backgroundColor: CHANNEL_COLORS[c] }} />
                {c}
              </span>
              <span className="block text-xs text-slate-600">{HELP[c]}</span>
            </span>
          </label>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            name="kgShuffle"
            checked={value.kgShuffle}
            onChange={(e) => onChange({ ...value, kgShuffle: e.target.checked })}
            className="size-4"
          />
          <span>
            <span className="font-medium text-slate-900">kgShuffle</span>{' '}
            <span className="text-xs text-slate-600">(control: KG evidence retrieved for seeded-random anchors instead)</span>
          </span>
        </label>
        <label className="flex items-center gap-2 text-xs text-slate-700">
          seed
          <input
            type="number"
            name="kgShuffleSeed"
            value={value.kgShuffleSeed}
            disabled={!value.kgShuffle}
            onChange={(e) => onChange({ ...value, kgShuffleSeed: Number(e.target.value) })}
            className="h-7 w-20 rounded-md border border-slate-300 px-1.5 disabled:bg-slate-100"
          />
        </label>
      </div>
    </fieldset>
  );
}
