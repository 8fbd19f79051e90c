-- AlterTable
ALTER TABLE "steps" ADD COLUMN     "contract_issue" TEXT;
