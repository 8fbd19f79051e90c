import { z } from 'zod';

/**
 * What the question-set import takes, without the readers: the `/eval` page
 * renders its form from these and so never loads the modules that read files.
 */
export const SET_FORMATS = ['mirage', 'medddx', 'pubmedqa', 'jsonl'] as const;
export type SetFormat = (typeof SET_FORMATS)[number];

/** Largest question-set file the web form takes (the MIRAGE benchmark is about 1 MB gzipped). */
export const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;

/** The `/eval` import form's fields besides the file; the CLI's `sets import` takes the same ones. */
export const SetUploadSchema = z.object({
  format: z.enum(SET_FORMATS, { message: `the format is one of ${SET_FORMATS.join(', ')}` }),
  name: z.string().trim().min(1, { message: 'a set needs a name' }).max(120),
  limit: z.coerce.number({ message: 'the limit is a number' }).int().positive().optional(),
});
export type SetUpload = z.infer<typeof SetUploadSchema>;
