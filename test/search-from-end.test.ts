import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { smallestFittingFromEnd } from "../src/plan/search-from-end.js";

describe("smallestFittingFromEnd", () => {
  it("finds the first fitting index of any monotone predicate, in O(log k) calls", () => {
    fc.assert(
      fc.property(fc.nat(5000), fc.nat(5001), (length, answer) => {
        const expected = Math.min(answer, length);
        let calls = 0;
        const found = smallestFittingFromEnd(length, (j) => {
          calls++;
          expect(j).toBeGreaterThanOrEqual(0);
          expect(j).toBeLessThan(length);
          return j >= expected;
        });
        expect(found).toBe(expected);
        const distance = length - expected;
        expect(calls).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(distance + 1)) + 2);
      }),
    );
  });
});
