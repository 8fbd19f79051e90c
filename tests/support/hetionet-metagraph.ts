import { readMetagraph } from '@/lib/kg/import/metagraph';
import { setMetagraph } from '@/lib/kg/loaded-metagraph';
import { DEMO_FILES } from '@/lib/kg/demo/files';

// Pure code (the offline engine, the question phrasing) reads the loaded graph's
// metagraph; tests that call it without running a method read Hetionet's, as a
// process serving the Hetionet subset would. Runs load their database's own.
setMetagraph([...readMetagraph(DEMO_FILES.metagraphFile).metaedges.values()]);
