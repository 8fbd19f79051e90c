// A run worker in a process of its own, so a test can kill it mid-run (SIGKILL:
// no shutdown hook runs, as when a server dies). DATABASE_URL and the model
// endpoint come from the environment.
import { startRunWorkers } from '../../lib/runs/worker';

await startRunWorkers({ concurrency: 1 });
console.log('worker ready');
setInterval(() => undefined, 1 << 30);
