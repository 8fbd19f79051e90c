export { direct } from './direct';
export { cot } from './cot';
export { kgRag } from './kg-rag';
