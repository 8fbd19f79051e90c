-- CreateTable
CREATE TABLE "trace_packs" (
    "run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "body" BYTEA NOT NULL,

    CONSTRAINT "trace_packs_pkey" PRIMARY KEY ("run_id","seq")
);

-- AddForeignKey
ALTER TABLE "trace_packs" ADD CONSTRAINT "trace_packs_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
