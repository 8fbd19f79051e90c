import { samplePaths } from '../../lib/kg';
import { seededNodes, topDegreeNodeIds, topMetaedges } from '../../lib/kg/store/sampling';

/**
 * The fixed KG workload: hand-picked mentions and questions, plus nodes and
 * pairs drawn from the loaded graph by a seeded hash (md5(id || seed)), so the
 * same graph always gives the same workload. Hubs are included on purpose: the
 * top-degree genes and the top-degree nodes overall (anatomy terms with ~20k edges).
 */
export const WORKLOAD_SEED = 'hopscope-bench-v1';

export const MENTIONS = [
  'multiple sclerosis',
  'Multiple Sclerosis',
  "Crohn's disease",
  'Crohns disease',
  'crohn disease',
  'metformin',
  'METFORMIN',
  'metformn',
  'type 2 diabetes mellitus',
  'type-2 diabetes',
  'PPARG',
  'TP53',
  'tp53',
  'insulin',
  "Alzheimer's disease",
  'alzheimers',
  "parkinson's disease",
  'breast cancer',
  'brain',
  'heart',
  'acetaminophen',
  'asprin',
  'hypertension',
  'rheumatoid arthritis',
  'IL6',
  'Headache',
  'nausea',
  'simvastatin',
  'systemic lupus erythematosis',
  'ulcerative colitis',
];

export const QUESTIONS = [
  "Which genes are associated with both multiple sclerosis and Crohn's disease?",
  'What compound treats type 2 diabetes mellitus and binds PPARG?',
  'which genes are associated with MULTIPLE SCLEROSIS and crohns disease',
  'Does metformn treat type-2 diabetes mellitus?',
  'Which side effects are caused by both simvastatin and atorvastatin?',
  'How many genes does rheumatoid arthritis share with systemic lupus erythematosus?',
  'Is SET expressed in the brain as well as in the heart?',
  'Which pathway includes both TP53 and MDM2?',
  "What symptoms does Parkinson's disease present with, and which drugs palliate it?",
  'Which anatomy does asthma localize to, given that it resembles chronic obstructive pulmonary disease?',
  'Name a compound that binds EGFR and treats lung cancer.',
  'Which genes are upregulated in ulcerative colitis but downregulated by methotrexate?',
  'Do alzheimers disease and parkinsons disease share associated genes?',
  'Which compounds resemble ibuprofen and treat osteoarthritis?',
];

export interface KgWorkload {
  mentions: string[];
  questions: string[];
  neighborNodes: { id: string; topMetaedge: string }[];
  sharedAnchors: { anchors: string[]; metaedges?: string[]; neighborKind?: string }[];
  pathPairs: { source: string; target: string }[];
}

let workload: Promise<KgWorkload> | null = null;

/** Built once per run: every KG module measures the same workload. */
export function kgWorkload(): Promise<KgWorkload> {
  workload ??= buildKgWorkload();
  return workload;
}

async function buildKgWorkload(): Promise<KgWorkload> {
  const seeded = async (kind: string, n: number) => (await seededNodes(WORKLOAD_SEED, n, kind)).map((r) => r.id);

  const topGenes = await topDegreeNodeIds(5, 'Gene');
  const topNodes = await topDegreeNodeIds(5);
  const randomNodes = (await seededNodes(WORKLOAD_SEED, 30)).map((r) => r.id);
  const neighborIds = [...new Set([...topGenes, ...topNodes, ...randomNodes])];
  const topMetaedge = await topMetaedges(neighborIds);

  const diseases = await seeded('Disease', 26);
  const compounds = await seeded('Compound', 20);
  const genes = await seeded('Gene', 10);
  const anatomyHubs = topNodes.filter((id) => id.startsWith('Anatomy::'));
  const pairs = <T>(xs: T[]) => xs.flatMap((x, i) => (i % 2 === 0 && xs[i + 1] !== undefined ? [[x, xs[i + 1]]] : []));

  const sharedAnchors: KgWorkload['sharedAnchors'] = [
    ...pairs(diseases.slice(0, 20)).map((anchors) => ({ anchors, metaedges: ['DaG'], neighborKind: 'Gene' })),
    ...pairs(compounds.slice(0, 10)).map((anchors) => ({ anchors, metaedges: ['CcSE'] })),
    ...pairs(topGenes.slice(0, 4)).map((anchors) => ({ anchors })),
    ...pairs(anatomyHubs.slice(0, 4)).map((anchors) => ({ anchors, metaedges: ['AeG'] })),
    { anchors: diseases.slice(20, 23), metaedges: ['DaG'] },
    { anchors: diseases.slice(23, 26), metaedges: ['DaG'] },
  ];

  const related = (await samplePaths('CtD|DaG|GiG', 5, WORKLOAD_SEED)).map((p) => ({ source: p.nodes[0].id, target: p.nodes[p.nodes.length - 1].id }));
  const pathPairs = [
    ...compounds.slice(10, 20).map((source, i) => ({ source, target: diseases[i] })),
    ...[...topGenes, ...genes.slice(0, 5)].map((source, i) => ({ source, target: diseases[10 + i] })),
    ...pairs([...topGenes.slice(0, 2), ...genes.slice(5, 10), topGenes[2]]).map(([source, target]) => ({ source, target })),
    ...pairs(diseases.slice(0, 10)).map(([source, target]) => ({ source, target })),
    ...related,
  ];
  return {
    mentions: MENTIONS,
    questions: QUESTIONS,
    neighborNodes: neighborIds.map((id) => ({ id, topMetaedge: topMetaedge.get(id)! })),
    sharedAnchors,
    pathPairs,
  };
}
