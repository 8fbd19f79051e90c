import { kindColor } from '@/components/graph/colors';
import { Badge } from '@/components/ui/Badge';

export function KindBadge({ kind, className }: { kind: string; className?: string }) {
  return (
    <Badge dotColor={kindColor(kind)} className={className} title={`Node kind: ${kind}`}>
      {kind}
    </Badge>
  );
}
