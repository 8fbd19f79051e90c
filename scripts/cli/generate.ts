// `npm run hopscope -- generate biomedhop|k2v`: a question set drawn from the loaded KG.
import { BIOMEDHOP_FAMILIES, GENERATORS, GenerateRequestSchema, GenerationError, generateQuestionSet, InvalidGenerationOptions, MAX_QUESTIONS, RENDERINGS, type GenerateRequest } from '../../lib/eval/generate';
import { SetNameTaken } from '../../lib/eval/sets';
import { parseArgs, UsageError } from './args';
import { describeSet, withKnowledgeBase } from './sets';

export const GENERATE_USAGE = `usage: npm run hopscope -- generate <${GENERATORS.join('|')}> --name NAME [--seed S] [--count N]
         [--families ${BIOMEDHOP_FAMILIES.join(',')}] [--renderings ${RENDERINGS.join(',')}]
  --seed S     any string or number (default 1); the same seed and count on the same graph give the same set
  --count N    questions, 1 to ${MAX_QUESTIONS} (default 50)
  --name NAME  re-running with the same name replaces that set
  --families, --renderings   biomedhop only; count questions are rendered as counts only`;

export async function run(argv: string[]): Promise<number> {
  try {
    const request = parseRequest(argv);
    return await withKnowledgeBase(async () => {
      const set = await generateQuestionSet(request);
      console.log(`${describeSet(set)}\nseed ${request.seed}`);
      return 0;
    });
  } catch (e) {
    if (e instanceof UsageError || e instanceof InvalidGenerationOptions || e instanceof SetNameTaken) {
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

function parseRequest(argv: string[]): GenerateRequest {
  const { values, positional } = parseArgs(argv, { values: ['seed', 'count', 'name', 'families', 'renderings'], flags: [] });
  if (positional.length !== 1) throw new UsageError(GENERATE_USAGE);
  const parsed = GenerateRequestSchema.safeParse({ ...values, generator: positional[0] });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path[0] === 'generator' ? '' : `--${String(issue.path[0])}: `;
    throw new UsageError(`${where}${issue.message}\n${GENERATE_USAGE}`);
  }
  return parsed.data;
}
