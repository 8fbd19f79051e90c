-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateTable
CREATE TABLE "embedding_cache" (
    "model" TEXT NOT NULL,
    "text_hash" TEXT NOT NULL,
    "vector" BYTEA NOT NULL,
    "dims" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "embedding_cache_pkey" PRIMARY KEY ("model","text_hash")
);
