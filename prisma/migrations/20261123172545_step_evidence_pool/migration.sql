-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- AlterTable
ALTER TABLE "steps" ADD COLUMN     "evidence_pool" JSONB;
