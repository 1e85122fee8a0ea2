import { describe, expect, it } from "vitest";
import { memoryStore, summarizeWith } from "../src/index.js";
import { renderTranscript } from "../src/summary-kit.js";
import { splitAtUserBoundary } from "../src/expert.js";
import { redisStore } from "../src/stores/redis.js";

// Every factory checks its options through the same few checks, so each kind of mistake reads the same everywhere.
describe("option checks", () => {
  it("an integer option: a TypeError for another type, a RangeError below its least value, each naming it", () => {
    expect(() => memoryStore({ maxEntries: "5" as never })).toThrow(
      new TypeError("Expected `maxEntries` to be a positive integer, got `5` (string)"),
    );
    expect(() => memoryStore({ maxEntries: 0 })).toThrow(
      new RangeError("Expected `maxEntries` to be a positive integer, got `0` (number)"),
    );
    expect(() => splitAtUserBoundary([], { keepTail: -1 })).toThrow(
      new RangeError("Expected `keepTail` to be an integer from 0 and up, got `-1` (number)"),
    );
    expect(() => summarizeWith(() => "s", { maxInputTokens: 1.5 })).toThrow(
      new RangeError("Expected `maxInputTokens` to be a positive integer, got `1.5` (number)"),
    );
    expect(() => redisStore(new Map(), { ttlSeconds: 0 })).toThrow(
      new RangeError("Expected `ttlSeconds` to be a positive integer, got `0` (number)"),
    );
    expect(() => renderTranscript([], { maxResultChars: "9" as never })).toThrow(
      new TypeError("Expected `maxResultChars` to be an integer from 0 and up, got `9` (string)"),
    );
  });

  it("an options object: not null or an array, and an unknown key is named with the known ones or the closest", () => {
    expect(() => memoryStore(null as never)).toThrow(TypeError);
    expect(() => summarizeWith(() => "s", [] as never)).toThrow(TypeError);
    expect(() => memoryStore({ maxEntry: 5 } as never)).toThrow(
      "Unknown option `maxEntry`. Known options: `maxEntries`, `maxBytes`, `ttlMs`.",
    );
    expect(() => renderTranscript([], { maxResultChar: 5 } as never)).toThrow("Did you mean `maxResultChars`?");
  });
});
