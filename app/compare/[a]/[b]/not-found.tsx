import { RunNotFound } from '@/components/runs/RunNotFound';

export default function CompareMissing() {
  return <RunNotFound what="comparison" />;
}
