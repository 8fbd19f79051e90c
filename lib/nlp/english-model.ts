import { createRequire } from 'node:module';
import type winkNLP from 'wink-nlp';

type Model = Parameters<typeof winkNLP>[0];

/**
 * wink's English web model, made for a pipe of sentence boundaries and parts of speech, in about half the time of the
 * package's own loader (~0.3 s of CPU on a slow machine, paid by every process that reads a question). The package's
 * `model.js` parses, at require time, the sentiment and entity models this pipe never runs, and its core loader copies the
 * 3 MB core model through JSON.stringify and decodes its base64 one character at a time; here the core model is parsed
 * once and decoded by Buffer, into the same structures. winkNLP still asks for the unused models when it starts, so they
 * are given as empty machines. `tests/unit/english-model.test.ts` checks every word's analysis against the package's
 * loader; the web server, whose bundler sees these requires, reads text in the K2V verification of tests/e2e/runs.spec.ts.
 */
export function loadEnglishModel(): Model {
  // Literal paths: the web server's bundler resolves each (the package is external there), Node requires them.
  const require = createRequire(import.meta.url);
  const unused = () => ({ machines: [EMPTY_MACHINE], transformers: [], setter: () => undefined });
  return {
    core: () => coreModel(require('wink-eng-lite-web-model/dist/languages/cur/models/eng-core-web-model.json')),
    sbd: require('wink-eng-lite-web-model/dist/load-sbd-model.js'),
    pos: require('wink-eng-lite-web-model/dist/load-pos-model.js'),
    metaCER: require('wink-eng-lite-web-model/dist/load-cer-meta-model.js'),
    ner: () => ({ machines: [], transformers: [] }),
    negation: unused,
    sa: unused,
    featureFn: require('wink-eng-lite-web-model/dist/feature.js'),
    addons: {
      stem: require('wink-eng-lite-web-model/dist/porter-stemmer.js'),
      lemmatize: require('wink-eng-lite-web-model/dist/lemmatize.js'),
      readabilityStats: require('wink-eng-lite-web-model/dist/readability-stats.js'),
      wordVectors: undefined,
    },
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

/**
 * The package's read-core-model.js and load-core-model.js without the deep copy: the parsed JSON (shared with the
 * package's own loader, were it ever used) is left as it is; what is added or replaced goes into new objects.
 */
function coreModel(parsed: CoreModel): CoreModel {
  const packing = { ...parsed.packing, efList: [] as string[] };
  const features = { ...parsed.features };
  for (const f in packing.layout) {
    const [, size, shift, intrinsic, extensible] = packing.layout[f];
    // Lists copied: wink appends the words it has not met to them.
    if (intrinsic === 0) {
      const list = [...features[f].list];
      features[f] = { ...features[f], list, hash: indexOf(list), intrinsicSize: list.length, index: list.length, maxIndex: size >>> shift };
    }
    if (extensible === 1) packing.efList.push(f);
  }
  const lexemes = [...features.lexeme.list];
  features.lexeme = { ...features.lexeme, list: lexemes, hash: indexOf(lexemes), intrinsicSize: lexemes.length, index: lexemes.length };
  features.posClusters = {
    ...features.posClusters,
    list: features.posClusters.list.map((c) => new Set((c as string).split('_').map((tag) => parsed.pos.hash[tag] || 0))),
  };
  return { ...parsed, lexicon: words(parsed.lexicon as string), xpansions: words(parsed.xpansions as string), packing, features };
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
