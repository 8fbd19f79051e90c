import { getPrisma } from '@/lib/db/client';
import { NotFoundError } from '@/lib/base/errors';
import type { GridConfig } from './grid';
import { JobGridSchema, JobSampleSchema, JobSettingsSchema, type JobSample, type JobSettings } from './schemas';

export type JobWhere = { id: string } | { shareId: string };

/** A job with its JSON columns parsed through their schemas. */
export interface LoadedJob {
  id: string;
  shareId: string;
  name: string | null;
  setId: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  methods: string[];
  grid: GridConfig[];
  settings: JobSettings;
  sample: JobSample | null;
  total: number;
  done: number;
  errors: number;
  summary: unknown;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  ownerId: string | null;
}

export async function loadJob(where: JobWhere): Promise<LoadedJob> {
  const job = await getPrisma().evalJob.findUnique({ where });
  if (!job) throw new NotFoundError('id' in where ? `No evaluation with id ${where.id}` : 'No evaluation behind this link');
  return {
    ...job,
    grid: JobGridSchema.parse(job.grid),
    settings: JobSettingsSchema.parse(job.params),
    sample: job.sample ? JobSampleSchema.parse(job.sample) : null,
  };
}
