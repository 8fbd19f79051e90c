import { RunNotFound } from '@/components/runs/RunNotFound';

export default function PermalinkMissing() {
  return <RunNotFound what="link" />;
}
