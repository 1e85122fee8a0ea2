/**
 * Smallest index `j` of `0 … length - 1` for which `fits(j)` holds, where `fits` is false then
 * true as `j` grows (a suffix that starts later never counts more). Returns `length` when none fits.
 *
 * It gallops from the end (1, 2, 4, … steps back) and then bisects, so it takes O(log k) calls for
 * an answer k places from the end, and every call but the last overshoot measures a suffix no
 * more than twice the answer's. That matters for a real tokenizer: a plain bisection would start
 * by tokenizing half of a long transcript.
 */
export function smallestFittingFromEnd(length: number, fits: (index: number) => boolean): number {
  if (length === 0 || !fits(length - 1)) return length;
  let good = length - 1;
  let step = 1;
  let bad = -1;
  while (good > 0) {
    const probe = Math.max(0, good - step);
    if (fits(probe)) {
      good = probe;
      step *= 2;
    } else {
      bad = probe;
      break;
    }
  }
  while (good - bad > 1) {
    const middle = (bad + good) >>> 1;
    if (fits(middle)) good = middle;
    else bad = middle;
  }
  return good;
}

/** The largest index from `from` up to `length - 1` for which `holds(index)`, or -1. */
export function latestIndex(length: number, from: number, holds: (index: number) => boolean): number {
  for (let index = length - 1; index >= from; index--) if (holds(index)) return index;
  return -1;
}
