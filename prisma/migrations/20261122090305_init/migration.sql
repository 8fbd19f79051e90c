-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "StepStatus" AS ENUM ('running', 'succeeded', 'failed', 'skipped');

-- CreateEnum
CREATE TYPE "Channel" AS ENUM ('doc', 'entity', 'kg', 'param', 'web');

-- CreateTable
CREATE TABLE "kg_imports" (
    "id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "node_count" INTEGER NOT NULL,
    "edge_count" INTEGER NOT NULL,
    "counts" JSONB NOT NULL,
    "checksum" TEXT NOT NULL,
    "files" JSONB NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "imported_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "kg_imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "metanodes" (
    "kind" TEXT NOT NULL,
    "abbr" TEXT NOT NULL,
    "color" TEXT,

    CONSTRAINT "metanodes_pkey" PRIMARY KEY ("kind")
);

-- CreateTable
CREATE TABLE "metaedges" (
    "abbr" TEXT NOT NULL,
    "source_kind" TEXT NOT NULL,
    "verb" TEXT NOT NULL,
    "target_kind" TEXT NOT NULL,
    "directed" BOOLEAN NOT NULL,
    "description" TEXT NOT NULL,
    "category" TEXT,
    "edge_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "metaedges_pkey" PRIMARY KEY ("abbr")
);

-- CreateTable
CREATE TABLE "nodes" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "source" TEXT,
    "description" TEXT,
    "normalised" TEXT NOT NULL,
    "degree" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "nodes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "node_aliases" (
    "id" SERIAL NOT NULL,
    "node_id" TEXT NOT NULL,
    "alias" TEXT NOT NULL,
    "normalised" TEXT NOT NULL,
    "source" TEXT NOT NULL,

    CONSTRAINT "node_aliases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "edges" (
    "id" SERIAL NOT NULL,
    "source_id" TEXT NOT NULL,
    "metaedge" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "provenance" TEXT,

    CONSTRAINT "edges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "node_degrees" (
    "node_id" TEXT NOT NULL,
    "metaedge" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "node_degrees_pkey" PRIMARY KEY ("node_id","metaedge","direction")
);

-- CreateTable
CREATE TABLE "entity_profiles" (
    "id" SERIAL NOT NULL,
    "node_id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "entity_profiles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "documents" (
    "id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "external_id" TEXT,
    "title" TEXT,
    "text" TEXT NOT NULL,
    "meta" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "passages" (
    "id" TEXT NOT NULL,
    "document_id" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "start" INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    "label" TEXT,
    "text" TEXT NOT NULL,
    "tsv" tsvector,

    CONSTRAINT "passages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "question_sets" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "license" TEXT,
    "description" TEXT,
    "meta" JSONB,
    "counts" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "question_sets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "questions" (
    "id" TEXT NOT NULL,
    "set_id" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "options" JSONB,
    "answer" JSONB,
    "answer_type" TEXT NOT NULL,
    "family" TEXT,
    "gold_graph" JSONB,
    "document_ids" TEXT[],
    "meta" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "questions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runs" (
    "id" TEXT NOT NULL,
    "share_id" TEXT NOT NULL,
    "question_id" TEXT,
    "question_text" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "method" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "config_hash" TEXT NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "answer" JSONB,
    "correct" BOOLEAN,
    "scores" JSONB,
    "cost" JSONB,
    "kg_version" TEXT,
    "parent_run_id" TEXT,
    "config_diff" JSONB,
    "eval_job_id" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "steps" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "parent_step_id" TEXT,
    "kind" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "status" "StepStatus" NOT NULL DEFAULT 'running',
    "input" JSONB,
    "output" JSONB,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "duration_ms" INTEGER,

    CONSTRAINT "steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evidence" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "step_id" TEXT,
    "ordinal" INTEGER NOT NULL,
    "channel" "Channel" NOT NULL,
    "kind" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "data" JSONB,
    "scores" JSONB,
    "selected" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "evidence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "model_calls" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "step_id" TEXT,
    "ordinal" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "backend" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "template_version" INTEGER NOT NULL,
    "messages" JSONB NOT NULL,
    "output" TEXT,
    "parsed" JSONB,
    "tokens_in" INTEGER NOT NULL DEFAULT 0,
    "tokens_out" INTEGER NOT NULL DEFAULT 0,
    "latency_ms" INTEGER NOT NULL DEFAULT 0,
    "cached" BOOLEAN NOT NULL DEFAULT false,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "model_calls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "model_cache" (
    "key" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "output" TEXT NOT NULL,
    "tokens_in" INTEGER NOT NULL,
    "tokens_out" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "model_cache_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "comparisons" (
    "id" TEXT NOT NULL,
    "share_id" TEXT NOT NULL,
    "run_a_id" TEXT NOT NULL,
    "run_b_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comparisons_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "eval_jobs" (
    "id" TEXT NOT NULL,
    "share_id" TEXT NOT NULL,
    "set_id" TEXT NOT NULL,
    "name" TEXT,
    "methods" TEXT[],
    "grid" JSONB NOT NULL,
    "params" JSONB,
    "sample" JSONB,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "summary" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "eval_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "eval_items" (
    "id" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "question_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "config_key" TEXT NOT NULL,
    "run_id" TEXT,
    "correct" BOOLEAN,
    "scores" JSONB,

    CONSTRAINT "eval_items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "kg_imports_kind_imported_at_idx" ON "kg_imports"("kind", "imported_at");

-- CreateIndex
CREATE INDEX "nodes_kind_idx" ON "nodes"("kind");

-- CreateIndex
CREATE INDEX "nodes_normalised_idx" ON "nodes"("normalised");

-- CreateIndex
CREATE INDEX "nodes_normalised_trgm" ON "nodes" USING GIN ("normalised" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "node_aliases_node_id_idx" ON "node_aliases"("node_id");

-- CreateIndex
CREATE INDEX "node_aliases_normalised_idx" ON "node_aliases"("normalised");

-- CreateIndex
CREATE INDEX "node_aliases_normalised_trgm" ON "node_aliases" USING GIN ("normalised" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "edges_source_id_metaedge_idx" ON "edges"("source_id", "metaedge");

-- CreateIndex
CREATE INDEX "edges_target_id_metaedge_idx" ON "edges"("target_id", "metaedge");

-- CreateIndex
CREATE INDEX "edges_metaedge_idx" ON "edges"("metaedge");

-- CreateIndex
CREATE INDEX "entity_profiles_node_id_idx" ON "entity_profiles"("node_id");

-- CreateIndex
CREATE UNIQUE INDEX "documents_source_external_id_key" ON "documents"("source", "external_id");

-- CreateIndex
CREATE INDEX "passages_tsv_idx" ON "passages" USING GIN ("tsv");

-- CreateIndex
CREATE UNIQUE INDEX "passages_document_id_ordinal_key" ON "passages"("document_id", "ordinal");

-- CreateIndex
CREATE UNIQUE INDEX "question_sets_name_key" ON "question_sets"("name");

-- CreateIndex
CREATE UNIQUE INDEX "questions_set_id_ordinal_key" ON "questions"("set_id", "ordinal");

-- CreateIndex
CREATE UNIQUE INDEX "runs_share_id_key" ON "runs"("share_id");

-- CreateIndex
CREATE INDEX "runs_created_at_idx" ON "runs"("created_at");

-- CreateIndex
CREATE INDEX "runs_question_id_idx" ON "runs"("question_id");

-- CreateIndex
CREATE INDEX "runs_eval_job_id_idx" ON "runs"("eval_job_id");

-- CreateIndex
CREATE INDEX "runs_status_idx" ON "runs"("status");

-- CreateIndex
CREATE INDEX "steps_run_id_parent_step_id_idx" ON "steps"("run_id", "parent_step_id");

-- CreateIndex
CREATE UNIQUE INDEX "steps_run_id_ordinal_key" ON "steps"("run_id", "ordinal");

-- CreateIndex
CREATE INDEX "evidence_run_id_step_id_idx" ON "evidence"("run_id", "step_id");

-- CreateIndex
CREATE UNIQUE INDEX "evidence_run_id_ordinal_key" ON "evidence"("run_id", "ordinal");

-- CreateIndex
CREATE INDEX "model_calls_run_id_step_id_idx" ON "model_calls"("run_id", "step_id");

-- CreateIndex
CREATE UNIQUE INDEX "model_calls_run_id_ordinal_key" ON "model_calls"("run_id", "ordinal");

-- CreateIndex
CREATE UNIQUE INDEX "comparisons_share_id_key" ON "comparisons"("share_id");

-- CreateIndex
CREATE UNIQUE INDEX "eval_jobs_share_id_key" ON "eval_jobs"("share_id");

-- CreateIndex
CREATE INDEX "eval_jobs_created_at_idx" ON "eval_jobs"("created_at");

-- CreateIndex
CREATE INDEX "eval_items_run_id_idx" ON "eval_items"("run_id");

-- CreateIndex
CREATE UNIQUE INDEX "eval_items_job_id_question_id_method_config_key_key" ON "eval_items"("job_id", "question_id", "method", "config_key");

-- AddForeignKey
ALTER TABLE "node_aliases" ADD CONSTRAINT "node_aliases_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "entity_profiles" ADD CONSTRAINT "entity_profiles_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "passages" ADD CONSTRAINT "passages_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "questions" ADD CONSTRAINT "questions_set_id_fkey" FOREIGN KEY ("set_id") REFERENCES "question_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_question_id_fkey" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_parent_run_id_fkey" FOREIGN KEY ("parent_run_id") REFERENCES "runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "steps" ADD CONSTRAINT "steps_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "eval_items" ADD CONSTRAINT "eval_items_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "eval_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
