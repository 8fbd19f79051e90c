import { BoundedMemo } from '@/lib/base/memo';
import { normalise } from '@/lib/llm/offline/text';

/**
 * Short texts EIGEN-1 normalises again and again (the names at its neighbourhoods' ends in every ranking, a plan's needs
 * and the queries searched in every continuation), each normalised once: normalising one (Unicode decomposition, four
 * passes) cost more than the lookup it serves.
 */
const normalised = new BoundedMemo<string, string>(20_000);

export const normaliseOnce = (text: string): string => normalised.get(text, normalise);
