import { z } from 'zod';
import { EXPORT_FORMATS, EXPORT_TABLES } from '@/lib/eval/jobs/export';

/** Route inputs of the evaluation API (app/api/eval/**), shared by the id and the share-link routes. */
export const EvalIdParams = z.object({ id: z.string().min(1).max(64) });
export const EvalShareParams = z.object({ shareId: z.string().min(1).max(64) });
export const EvalQuestionParams = z.object({ questionId: z.string().min(1).max(64) });
export const MatrixQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export const ExportQuery = z.object({ format: z.enum(EXPORT_FORMATS).default('csv'), table: z.enum(EXPORT_TABLES).default('items') });
