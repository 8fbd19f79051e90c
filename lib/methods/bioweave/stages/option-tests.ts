import { citableId } from '@/lib/trace/ids';
import { tripleOf } from '@/lib/trace/evidence-data';
import type { MethodContext } from '../../types';
import type { QuestionFrame } from '../frame';
import type { BioWeaveParams } from '../params';
import type { Unit } from '../units';

/**
 * Aid `option-tests` (docs/aids.md; none with the aids off): for a
 * multiple-choice question, the KG edges joining each option to an entity the
 * stem names, read once, as KG units that join every round's refined graph
 * beside the selected units, so the operator check and the answer can test
 * the options against the stem. Not part of BioWeave: its retrieval starts
 * from the plan's typed hops, and its selection keeps K units.
 */
export async function testOptions(ctx: MethodContext<BioWeaveParams>, frame: QuestionFrame): Promise<Unit[]> {
  const records = await ctx.channels.aids.optionTests(null, frame);
  return records.map((r): Unit => {
    const t = tripleOf(r);
    const source = { nodeId: t.sourceId, name: t.sourceName, kind: t.sourceKind };
    const target = { nodeId: t.targetId, name: t.targetName, kind: t.targetKind };
    return {
      id: citableId('aid', t.metaedge, t.sourceName, t.targetName),
      source: 'kg',
      round: 1,
      ref: null,
      text: r.text,
      entities: [source, target],
      predicate: t.metaedge,
      relations: [t.metaedge],
      hops: [],
      span: null,
      provenance: [r.id],
      negated: false,
      paths: [{ id: r.id, nodes: [source, target], triples: [t], metapath: t.metaedge }],
      pathScore: null,
      operatorConsistent: false,
    };
  });
}
