-- DropIndex
DROP INDEX "question_sets_name_key";

-- AlterTable
ALTER TABLE "documents" ADD COLUMN     "owner_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "question_sets_owner_id_name_key" ON "question_sets"("owner_id", "name");

-- Documents attached to a run, or brought by a question set, belong to its owner.
UPDATE "documents" d SET "owner_id" = r."owner_id"
  FROM "runs" r
 WHERE d."source" = 'attached' AND r."owner_id" IS NOT NULL AND r."input"->'documentIds' ? d."id";
UPDATE "documents" d SET "owner_id" = s."owner_id"
  FROM "questions" q JOIN "question_sets" s ON s."id" = q."set_id"
 WHERE d."source" = 'question' AND s."owner_id" IS NOT NULL AND d."id" = ANY(q."document_ids");
