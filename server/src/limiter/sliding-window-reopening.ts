// When a sliding window that has just refused a caller admits it again, computed the way
// @upstash/ratelimit's sliding-window script decides: at `offset` ms into window `w`, the caller has
// used floor((1 - offset / window) * previous) + current tokens, previous and current being the
// counters of windows w-1 and w, and is refused while that reaches the limit. The weighted part only
// shrinks as the window advances, so the first admitting moment is found by a binary search over the
// same floating-point expression (never a closed form, whose rounding could differ by a millisecond).
// Refusals add nothing to the counters, so until the caller is admitted they stay as read.

/** Tokens used `offset` ms into a window, exactly as the library's script computes them. */
function weightedCount(previous: number, current: number, offset: number, windowMs: number): number {
  return Math.floor((1 - offset / windowMs) * previous) + current;
}

/** The first offset in [from, windowMs) at which a request is admitted, or undefined when none is. */
function firstAdmittingOffset(previous: number, current: number, from: number, windowMs: number, limit: number): number | undefined {
  if (weightedCount(previous, current, windowMs - 1, windowMs) >= limit) return undefined;
  let low = from;
  let high = windowMs - 1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (weightedCount(previous, current, middle, windowMs) < limit) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The first moment (ms epoch, at or after `now`) at which a sliding window of `windowMs` and `limit`
 * tokens admits a caller whose counters at `now` are `previous` (the window before now's) and
 * `current` (now's window). Past now's window its counter becomes the previous one; two windows on,
 * both are empty and the caller is admitted.
 */
export function slidingWindowReopensAt(previous: number, current: number, now: number, windowMs: number, limit: number): number {
  const start = Math.floor(now / windowMs) * windowMs;
  const inThisWindow = firstAdmittingOffset(previous, current, now - start, windowMs, limit);
  if (inThisWindow !== undefined) return start + inThisWindow;
  const inNextWindow = firstAdmittingOffset(current, 0, 0, windowMs, limit);
  if (inNextWindow !== undefined) return start + windowMs + inNextWindow;
  return start + 2 * windowMs;
}
