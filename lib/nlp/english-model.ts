import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type winkNLP from 'wink-nlp';

type Model = Parameters<typeof winkNLP>[0];

/**
 * wink's English web model, made for a pipe of sentence boundaries and parts of speech, in about half the time of the
 * package's own loader (~0.3 s of CPU on a slow machine, paid by every process that reads a question). The package's
 * `model.js` parses, at require time, the sentiment and entity models this pipe never runs, and its core loader copies the
 * 3 MB core model through JSON.stringify and decodes its base64 one character at a time; here the core model is parsed
 * once and decoded by Buffer, into the same structures. winkNLP still asks for the unused models when it starts, so they
 * are given as empty machines. `tests/unit/english-model.test.ts` checks every word's analysis against the package's loader.
 */
export function loadEnglishModel(): Model {
  const require = createRequire(import.meta.url);
  const dist = path.dirname(require.resolve('wink-eng-lite-web-model'));
  const part = (file: string) => require(path.join(dist, file));
  const unused = () => ({ machines: [EMPTY_MACHINE], transformers: [], setter: () => undefined });
  return {
    core: () => coreModel(path.join(dist, 'languages/cur/models/eng-core-web-model.json')),
    sbd: part('load-sbd-model.js'),
    pos: part('load-pos-model.js'),
    metaCER: part('load-cer-meta-model.js'),
    ner: () => ({ machines: [], transformers: [] }),
    negation: unused,
    sa: unused,
    featureFn: part('feature.js'),
    addons: { stem: part('porter-stemmer.js'), lemmatize: part('lemmatize.js'), readabilityStats: part('readability-stats.js'), wordVectors: undefined },
  } as unknown as Model;
}

/** An automaton that recognises nothing, as winkNLP's automata export themselves. */
const EMPTY_MACHINE = '[0,0,{},{},{},{}]';

interface Feature {
  list: string[];
  hash: Record<string, number>;
  intrinsicSize: number;
  index: number;
  maxIndex: number;
}
interface CoreModel {
  lexicon: string | Uint32Array;
  xpansions: string | Uint32Array;
  features: Record<string, Feature> & { posClusters: { list: (string | Set<number>)[] } };
  pos: { hash: Record<string, number> };
  packing: { layout: Record<string, number[]>; efList: string[] };
}

/** The package's read-core-model.js and load-core-model.js, without the copy. */
function coreModel(file: string): CoreModel {
  const model = JSON.parse(fs.readFileSync(file, 'utf8')) as CoreModel;
  const { packing, features, pos } = model;
  model.lexicon = words(model.lexicon as string);
  model.xpansions = words(model.xpansions as string);
  packing.efList = [];
  for (const f in packing.layout) {
    const [, size, shift, intrinsic, extensible] = packing.layout[f];
    if (intrinsic === 0) {
      const feature = features[f];
      feature.hash = indexOf(feature.list);
      feature.intrinsicSize = feature.index = feature.list.length;
      feature.maxIndex = size >>> shift;
    }
    if (extensible === 1) packing.efList.push(f);
  }
  const lexeme = features.lexeme;
  lexeme.hash = indexOf(lexeme.list);
  lexeme.intrinsicSize = lexeme.index = lexeme.list.length;
  const clusters = features.posClusters.list;
  for (let k = 0; k < clusters.length; k++) clusters[k] = new Set((clusters[k] as string).split('_').map((tag) => pos.hash[tag] || 0));
  return model;
}

/** A base64 text of 32-bit words, little-endian as the package's browser decoding reads them. */
function words(base64: string): Uint32Array {
  const bytes = Buffer.from(base64, 'base64');
  const out = new Uint32Array(bytes.length >>> 2);
  new Uint8Array(out.buffer).set(bytes.subarray(0, out.length * 4));
  return out;
}

function indexOf(list: string[]): Record<string, number> {
  const hash: Record<string, number> = Object.create(null);
  for (let k = 0; k < list.length; k++) hash[list[k]] = k;
  return hash;
}
