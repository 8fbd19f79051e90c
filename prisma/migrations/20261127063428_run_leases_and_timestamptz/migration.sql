-- AlterTable
ALTER TABLE "api_tokens" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
ALTER COLUMN "last_used_at" SET DATA TYPE TIMESTAMPTZ(3) USING "last_used_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "comparisons" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "documents" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "embedding_cache" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "eval_jobs" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
ALTER COLUMN "updated_at" SET DATA TYPE TIMESTAMPTZ(3) USING "updated_at" AT TIME ZONE 'UTC',
ALTER COLUMN "finished_at" SET DATA TYPE TIMESTAMPTZ(3) USING "finished_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "evidence" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "kg_imports" ALTER COLUMN "imported_at" SET DATA TYPE TIMESTAMPTZ(3) USING "imported_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "model_cache" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "model_calls" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
ALTER COLUMN "started_at" SET DATA TYPE TIMESTAMPTZ(3) USING "started_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "question_sets" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
ALTER COLUMN "updated_at" SET DATA TYPE TIMESTAMPTZ(3) USING "updated_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "questions" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "backend_key" TEXT NOT NULL DEFAULT 'offline',
ADD COLUMN     "lease_until" TIMESTAMPTZ(3),
ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
ALTER COLUMN "updated_at" SET DATA TYPE TIMESTAMPTZ(3) USING "updated_at" AT TIME ZONE 'UTC',
ALTER COLUMN "started_at" SET DATA TYPE TIMESTAMPTZ(3) USING "started_at" AT TIME ZONE 'UTC',
ALTER COLUMN "finished_at" SET DATA TYPE TIMESTAMPTZ(3) USING "finished_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "steps" ALTER COLUMN "started_at" SET DATA TYPE TIMESTAMPTZ(3) USING "started_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "users" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- AlterTable
ALTER TABLE "verifications" ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC';

-- CreateIndex
CREATE INDEX "runs_status_lease_until_idx" ON "runs"("status", "lease_until");

-- The backend each run needs, from its stored config (endpoint without credentials, and model).
UPDATE "runs" SET "backend_key" = 'openai ' || coalesce("config"->'backend'->>'baseUrl', '') || ' ' || coalesce("config"->'backend'->>'model', '')
 WHERE "config"->'backend'->>'backend' = 'openai';

-- Every timestamp now has its time zone. Values were written as UTC (by Prisma), so they are read as UTC above;
-- comparisons with now() then hold whatever the TimeZone setting of the database.
