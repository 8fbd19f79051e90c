// `npm run hopscope -- generate biomedhop|k2v`: a question set drawn from the loaded KG.
import {
  BIOMEDHOP_FAMILIES,
  COVERAGE_POLICIES,
  EVIDENCE_SOURCES,
  GENERATORS,
  GenerateRequestSchema,
  GenerationError,
  generateQuestionSet,
  InvalidGenerationOptions,
  MAX_QUESTIONS,
  RENDERINGS,
  type EvidenceReport,
  type GenerateRequest,
} from '../../lib/eval/generate';
import { SetNameTaken } from '../../lib/eval/sets';
import { InvalidInputError } from '../../lib/base/errors';
import { parseArgs, UsageError } from './args';
import { describeSet } from './sets';
import { withKnowledgeBase } from './session';

export const GENERATE_USAGE = `usage: npm run hopscope -- generate <${GENERATORS.join('|')}> --name NAME [--seed S] [--count N]
         [--families ${BIOMEDHOP_FAMILIES.join(',')}] [--renderings ${RENDERINGS.join(',')}]
         [--sources ${EVIDENCE_SOURCES.join(',')}] [--coverage ${COVERAGE_POLICIES.join('|')}]
  --seed S     any string or number (default 1); the same seed and count on the same graph give the same set
  --count N    questions, 1 to ${MAX_QUESTIONS} (default 50)
  --name NAME  a name you hold already is refused, unless --replace
  --replace    replace your set of that name (from the same generator)
  --families, --renderings   biomedhop only; count questions are rendered as counts only
  --sources    biomedhop: the source condition whose document and web bundles each question carries (default all three)
  --coverage   biomedhop: label (default) keeps every question with its coverage labelled; require redraws questions
               a text source of the condition states no hop of`;

export async function run(argv: string[]): Promise<number> {
  try {
    const { request, replace } = parseRequest(argv);
    return await withKnowledgeBase(async () => {
      const set = await generateQuestionSet(request, { replace });
      console.log(`${describeSet(set)}\nseed ${request.seed}`);
      const report = (set.meta as { evidence?: EvidenceReport } | null)?.evidence;
      if (report) console.log(describeEvidence(report));
      return 0;
    });
  } catch (e) {
    if (e instanceof UsageError || e instanceof InvalidGenerationOptions || e instanceof SetNameTaken || e instanceof InvalidInputError) {
      console.error(`error: ${e.message}`);
      return 2;
    }
    if (e instanceof GenerationError) {
      console.error(`failed: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

function parseRequest(argv: string[]): { request: GenerateRequest; replace: boolean } {
  const { values, flags, positional } = parseArgs(argv, {
    values: ['seed', 'count', 'name', 'families', 'renderings', 'sources', 'coverage'],
    flags: ['replace'],
  });
  if (positional.length !== 1) throw new UsageError(GENERATE_USAGE);
  const parsed = GenerateRequestSchema.safeParse({ ...values, generator: positional[0] });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path[0] === 'generator' ? '' : `--${String(issue.path[0])}: `;
    throw new UsageError(`${where}${issue.message}\n${GENERATE_USAGE}`);
  }
  return { request: parsed.data, replace: flags.has('replace') };
}

/** The coverage of the set's source-conditioned evidence, in a few lines. */
export function describeEvidence(r: EvidenceReport): string {
  const pct = (n: number, of: number) => (of ? `${Math.round((100 * n) / of)} %` : '–');
  const lines = [
    `evidence: condition ${r.condition.join('+')}, coverage ${r.policy}; ${Object.entries(r.status)
      .filter(([, n]) => n)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')}`,
  ];
  if (r.doc)
    lines.push(
      `  doc: ${r.doc.passages} passages; ${r.doc.questionsCovered}/${r.questions} questions state a hop; ${r.doc.hopsStated}/${r.doc.hops} hops stated (${pct(r.doc.hopsStated, r.doc.hops)})`,
    );
  if (r.web)
    lines.push(
      `  web: ${r.web.records} records; ${r.web.questionsCovered}/${r.questions} questions state a hop; ${r.web.hopsStated}/${r.web.hops} hops stated (${pct(r.web.hopsStated, r.web.hops)})`,
    );
  const rejected = Object.entries(r.rejected);
  if (rejected.length) lines.push(`  rejected draws: ${rejected.map(([why, n]) => `${n} × ${why}`).join('; ')}`);
  return lines.join('\n');
}
