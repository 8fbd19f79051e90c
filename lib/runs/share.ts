import { NotFoundError } from '@/lib/base/errors';
import { exportRun } from './export';
import { getRunView, getStepDetail, type RunView, type StepDetail } from './view';
import { runIdOfShare as readRunIdOfShare, shareIdOf } from './store/runs';

/**
 * What a share link opens: the run as its permalink, share APIs and share
 * export show it. A share link is a read capability and carries no private
 * id: the run's id is its share id, its parent and children are named by
 * theirs, and no action of the run's own page is offered.
 */
export async function getSharedRunView(shareId: string): Promise<RunView> {
  return toSharedView(await getRunView({ shareId }));
}

export function toSharedView(view: RunView): RunView {
  return {
    ...view,
    id: view.shareId,
    shared: true,
    parent: view.parent ? { id: view.parent.shareId, shareId: view.parent.shareId } : null,
    children: view.children.map((c) => ({ ...c, id: c.shareId })),
  };
}

export async function getSharedStepDetail(shareId: string, stepId: string): Promise<StepDetail> {
  return getStepDetail(await runIdOfShare(shareId), stepId);
}

/** The export behind a share link: the run named by its share id only. */
export async function exportSharedRun(shareId: string) {
  const exported = await exportRun({ shareId });
  const { id: _id, parentRunId, children, ...run } = exported.run;
  const parentShareId = parentRunId ? await shareIdOf(parentRunId) : null;
  return {
    ...exported,
    run: { ...run, parentShareId, children: children.map(({ id: _c, ...c }) => c) },
  };
}

async function runIdOfShare(shareId: string): Promise<string> {
  const id = await readRunIdOfShare(shareId);
  if (!id) throw new NotFoundError('No run behind this link');
  return id;
}
