// Random picks with Redis's count semantics, shared by SRANDMEMBER, SPOP, ZRANDMEMBER and
// HRANDFIELD: a positive count gives distinct items, a negative one may repeat. Only repeats can
// ask for more items than the data holds, so they are checked against the reply limits first.
import type { ErrorReply } from '../reply';
import { refuseElements, type ReplyLimits } from './reply-limits';

/** `count` items of `items`: distinct when count >= 0 (at most all of them), with repeats when negative. */
export function randomPicks<T>(items: readonly T[], count: number): T[] {
  if (count < 0) return Array.from({ length: -count }, () => items[Math.floor(Math.random() * items.length)]);
  const pool = [...items];
  const picks = Math.min(count, pool.length);
  for (let i = 0; i < picks; i++) {
    const j = i + Math.floor(Math.random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, picks);
}

/** The reply-limit error when `count` picks of `elementsEach` reply elements would outgrow a reply. */
export function refusePicks(count: number, elementsEach: number, limits: ReplyLimits): ErrorReply | undefined {
  return count < 0 ? refuseElements(-count * elementsEach, limits) : undefined;
}
