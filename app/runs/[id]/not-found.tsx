import { RunNotFound } from '@/components/runs/RunNotFound';

export default function RunMissing() {
  return <RunNotFound what="run" />;
}
