import type { Metadata } from 'next';
import { connection } from 'next/server';
import { EvalJobList } from '@/components/eval/EvalJobList';
import { EvalStartForm } from '@/components/eval/EvalStartForm';
import { QuestionSetForms } from '@/components/eval/QuestionSetForms';
import { Card } from '@/components/ui/Card';
import { MAX_QUESTIONS } from '@/lib/eval/generate/errors';
import { BIOMEDHOP_FAMILIES, RENDERINGS } from '@/lib/eval/generate/types';
import { EVIDENCE_SOURCES } from '@/lib/eval/generate/types';
import { MAX_UPLOAD_BYTES, SET_FORMATS } from '@/lib/eval/import/formats';
import { pageViewer } from '@/lib/auth/page';
import { GRID_PRESETS, listEvalJobs } from '@/lib/eval/jobs';
import { listQuestionSets } from '@/lib/eval/sets';
import { listMethods } from '@/lib/methods/registry';
import { generateSetAction, importSetAction, startEvaluationAction } from './actions';

export const metadata: Metadata = { title: 'Evaluation' };

export default async function EvalPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection(); // jobs and sets are read per request
  const viewer = await pageViewer('/eval');
  const [jobs, sets, params] = await Promise.all([listEvalJobs(50, viewer), listQuestionSets(viewer), searchParams]);
  const selected = typeof params.set === 'string' ? params.set : undefined;
  const methods = listMethods().map((m) => ({ id: m.id, name: m.name }));
  return (
    <section className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Evaluation</h1>
        <p className="max-w-3xl text-slate-700">
          Run a question set across methods and knowledge-switch configurations, then read accuracy, abstention, grounding and cost per method × configuration,
          per family (BioMedHop&apos;s Overall Avg), and question by question in the attribution matrix.
        </p>
      </header>
      <div className="grid items-start gap-6 lg:grid-cols-12">
        <div className="space-y-6 lg:col-span-5">
          <Card title="Start an evaluation" headingId="start-heading">
            <EvalStartForm
              sets={sets.map((s) => ({ name: s.name, source: s.source, total: s.counts.total }))}
              selected={selected}
              methods={methods}
              presets={GRID_PRESETS}
              action={startEvaluationAction}
            />
          </Card>
          <Card title="Add a question set" headingId="sets-heading">
            <QuestionSetForms
              generate={generateSetAction}
              importFile={importSetAction}
              families={BIOMEDHOP_FAMILIES}
              renderings={RENDERINGS}
              sources={EVIDENCE_SOURCES}
              formats={SET_FORMATS}
              maxQuestions={MAX_QUESTIONS}
              maxUploadMb={MAX_UPLOAD_BYTES / 1024 / 1024}
            />
          </Card>
        </div>
        <Card title="Evaluations" headingId="jobs-heading" className="lg:col-span-7">
          <EvalJobList initial={jobs} />
        </Card>
      </div>
    </section>
  );
}
