import next from 'eslint-config-next';

/**
 * A method stage is its paper's method: it reaches Hopscope's question reader
 * only through the aids channel (lib/channels/aids.ts, behind the `aids`
 * switch), and the offline engine only as the model backend, never directly
 * (docs/aids.md). The offline rule kit's shared modules (text, metagraph,
 * lexical similarity, evidence walking and set operations, option parsing)
 * stay importable; the reader and the engine do not.
 */
const READER_AND_ENGINE = [
  '@/lib/llm/offline-backend',
  '@/lib/llm/offline/understand',
  '@/lib/llm/offline/subquestions',
  '@/lib/llm/offline/kind-words',
  '@/lib/llm/offline/domain',
  '@/lib/reading/*',
  // Shared with the reader but not reading the question: parsing the options a question gives, a hop's reverse, cue phrases in passages.
  '!@/lib/reading/options',
  '!@/lib/reading/attach',
  '!@/lib/reading/relation-cues',
  '@/lib/channels/answer-set',
];

const READER_MESSAGE = 'A method stage reaches the question reader only through the aids channel (ctx.channels.aids, lib/channels/aids.ts; docs/aids.md).';

export default [
  ...next,
  { ignores: ['lib/db/generated/**', '.next/**', '.data/**', '.build/**', 'node_modules/**'] },
  {
    files: ['lib/methods/**/*.ts'],
    ignores: ['lib/methods/**/offline/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // The reader's entry point by name (a pattern for it would also hold back the shared modules below it).
          paths: [{ name: '@/lib/reading', message: READER_MESSAGE }],
          patterns: [
            {
              group: READER_AND_ENGINE,
              message: READER_MESSAGE,
            },
            {
              group: ['./offline/*', '../offline/*', '../../offline/*', '../../*/offline/*', '@/lib/methods/*/offline/*'],
              message: "Only a method module registers its offline rules (import './offline'); stages never call them.",
            },
          ],
        },
      ],
    },
  },
];
