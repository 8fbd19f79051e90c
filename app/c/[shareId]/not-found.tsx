import { RunNotFound } from '@/components/runs/RunNotFound';

export default function ComparisonLinkMissing() {
  return <RunNotFound what="link" />;
}
