import { z } from 'zod';
import { getPool, getPrisma } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { toJson } from '@/lib/base/json';
import { announceRunChanged } from '@/lib/runs/store/changes';
import { K2vReportSchema, type K2vReport, type VerificationStage } from '@/lib/trace/steps/k2v';

/** The verifications' store: each verification is a record of its own (version 1, 2, … per run); runs are never changed. */

/** Stores the verification as the run's next version (a concurrent verification of the same run takes the one after). */
export async function saveVerification(report: Omit<K2vReport, 'version'>, stages: VerificationStage[], durationMs: number): Promise<K2vReport> {
  const prisma = await getPrisma();
  for (let attempt = 0; ; attempt++) {
    const last = await prisma.verification.aggregate({ where: { runId: report.runId }, _max: { version: true } });
    const full: K2vReport = { ...report, version: (last._max.version ?? 0) + 1 };
    try {
      await prisma.verification.create({
        data: {
          runId: report.runId,
          version: full.version,
          criteriaVersion: report.criteriaVersion,
          alpha: report.alpha,
          passRate: report.passRate,
          verifier: report.verifier,
          report: toJson(full),
          stages: toJson(stages),
          durationMs,
        },
      });
      await announceRunChanged(report.runId);
      return full;
    } catch (error) {
      if (attempt < 3 && (error as { code?: string }).code === 'P2002') continue;
      throw error;
    }
  }
}

/** Each run's latest verification report. */
export async function latestReports(runIds: string[]): Promise<Map<string, K2vReport>> {
  if (!runIds.length) return new Map();
  const rows = await queryRows(
    getPool(),
    z.object({ id: z.string(), report: K2vReportSchema }),
    `select distinct on (run_id) run_id id, report from verifications where run_id = any($1::text[]) order by run_id, version desc`,
    [runIds],
  );
  return new Map(rows.map((r) => [r.id, r.report]));
}

/** A run's verification reports, newest first; a report that no longer fits its schema is left out. */
export async function reportsOf(runId: string): Promise<K2vReport[]> {
  const prisma = await getPrisma();
  const rows = await prisma.verification.findMany({ where: { runId }, orderBy: { version: 'desc' }, select: { report: true } });
  return rows.flatMap((r) => K2vReportSchema.safeParse(r.report).data ?? []);
}
