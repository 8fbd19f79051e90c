-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- AlterEnum
ALTER TYPE "Channel" ADD VALUE 'aids';
