-- The stored spelling names are a cache of the loaded knowledge: dropped here and stored again, with their middle buckets, by the first process that links.
DELETE FROM "spelling_names";

-- AlterTable
ALTER TABLE "spelling_names" ADD COLUMN "middle" TEXT;

-- CreateIndex
CREATE INDEX "spelling_names_signature_middle_idx" ON "spelling_names"("signature", "middle");
