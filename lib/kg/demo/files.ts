import path from 'node:path';
import { PROJECT_ROOT } from '../../config';

/** The demo graph's files, in Hetionet's release formats (see README.md here). */
export const DEMO_DIR = path.join(PROJECT_ROOT, 'lib', 'kg', 'demo');
export const DEMO_FILES = {
  nodesFile: path.join(DEMO_DIR, 'demo-nodes.tsv'),
  edgesFile: path.join(DEMO_DIR, 'demo-edges.sif'),
  metagraphFile: path.join(DEMO_DIR, 'hetionet-v1.0-metagraph.json'),
} as const;
export const DEMO_SOURCE = 'demo';
