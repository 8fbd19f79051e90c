-- Steps and model calls are read by run only (their (run_id, ordinal) unique index): the indexes by parent step and by
-- step were kept up for every row a run's trace writes and read by nothing.

-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- DropIndex
DROP INDEX "model_calls_run_id_step_id_idx";

-- DropIndex
DROP INDEX "steps_run_id_parent_step_id_idx";
