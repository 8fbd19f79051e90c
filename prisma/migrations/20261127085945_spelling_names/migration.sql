-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateTable
CREATE TABLE "spelling_names" (
    "signature" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "node_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "matched" TEXT NOT NULL,
    "normalised" TEXT NOT NULL,
    "degree" INTEGER NOT NULL,
    "source" TEXT,
    "head" TEXT NOT NULL,
    "tail" TEXT NOT NULL,
    "words" TEXT,

    CONSTRAINT "spelling_names_pkey" PRIMARY KEY ("signature","seq")
);

-- CreateIndex
CREATE INDEX "spelling_names_signature_head_idx" ON "spelling_names"("signature", "head");

-- CreateIndex
CREATE INDEX "spelling_names_signature_tail_idx" ON "spelling_names"("signature", "tail");

-- CreateIndex
CREATE INDEX "spelling_names_signature_words_idx" ON "spelling_names"("signature", "words");
