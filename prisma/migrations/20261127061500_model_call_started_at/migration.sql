-- AlterTable
ALTER TABLE "model_calls" ADD COLUMN     "started_at" TIMESTAMP(3);
