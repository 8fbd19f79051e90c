-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateTable
CREATE TABLE "verifications" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "criteria_version" INTEGER NOT NULL,
    "alpha" DOUBLE PRECISION NOT NULL,
    "pass_rate" DOUBLE PRECISION NOT NULL,
    "verifier" TEXT NOT NULL,
    "report" JSONB NOT NULL,
    "stages" JSONB NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "verifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "verifications_run_id_version_key" ON "verifications"("run_id", "version");

-- AddForeignKey
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
