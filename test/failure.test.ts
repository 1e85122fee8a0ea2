// Every failure leaves the transcript as it was.
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { CompactionError, compact, compactor, isCompactionError, type CompactorOptions } from "../src/index.js";
import { deepFreeze } from "./support/transcripts.js";

const perMessage = (list: readonly unknown[]) => list.length;
const messages = deepFreeze([
  { role: "system", content: "S" },
  { role: "user", content: "u1" },
  { role: "assistant", content: "a1" },
  { role: "user", content: "u2" },
  { role: "assistant", content: "a2" },
]);
const base = { maxTokens: 3, keepTail: 2, countTokens: perMessage };

async function failure(summarize: CompactorOptions["summarize"], extra: Partial<CompactorOptions> = {}) {
  const hook = compactor({ ...base, summarize, ...extra });
  const error = await hook({ messages }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isCompactionError(error)).toBe(true);
  return error as CompactionError;
}

describe("failures are coded CompactionErrors", () => {
  const cases: [string, CompactorOptions["summarize"], CompactionError["code"]][] = [
    [
      "a throwing summarize",
      () => {
        throw new Error("boom");
      },
      "SUMMARIZE_FAILED",
    ],
    [
      "a rejecting summarize",
      async () => {
        throw new Error("boom");
      },
      "SUMMARIZE_FAILED",
    ],
    ["an empty summary", () => "", "INVALID_SUMMARY"],
    ["a whitespace summary", async () => "  \n ", "INVALID_SUMMARY"],
    ["a non-string summary", () => 42 as unknown as string, "INVALID_SUMMARY"],
    ["an undefined summary", () => undefined as unknown as string, "INVALID_SUMMARY"],
  ];
  it.each(cases)("%s → %s", async (_, summarize, code) => {
    const error = await failure(summarize);
    expect(error).toBeInstanceOf(CompactionError);
    expect(error.name).toBe("CompactionError");
    expect(error.code).toBe(code);
    if (code === "SUMMARIZE_FAILED") expect((error.cause as Error).message).toBe("boom");
  });

  it("a timeout aborts ctx.signal and settles at once, even if summarize never settles", async () => {
    // The clock is the test's: the hook must settle when 30 ms of it have passed, and not before.
    vi.useFakeTimers();
    onTestFinished(() => void vi.useRealTimers());
    let signal: AbortSignal | undefined;
    let settled = false;
    const pending = failure(
      (_, context) => {
        signal = context.signal;
        return new Promise<string>(() => {});
      },
      { summary: { timeoutMs: 30 } },
    ).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(29);
    expect(settled).toBe(false);
    expect(signal!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    const error = await pending;
    expect(error.code).toBe("TIMEOUT");
    expect(signal!.aborted).toBe(true);
  });

  it("a summarize that rejects after the timeout causes no unhandled rejection", async () => {
    const unhandled = vi.fn();
    process.on("unhandledRejection", unhandled);
    try {
      const error = await failure(
        () => new Promise<string>((_, reject) => setTimeout(() => reject(new Error("late")), 40)),
        { summary: { timeoutMs: 5 } },
      );
      expect(error.code).toBe("TIMEOUT");
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off("unhandledRejection", unhandled);
    }
  });

  it("the event's signal aborting rejects with ABORTED, before or during summarize", async () => {
    const hook = compactor({ ...base, summarize: () => new Promise<string>(() => {}) });
    const early = new AbortController();
    early.abort(new Error("user left"));
    await expect(hook({ messages, signal: early.signal })).rejects.toMatchObject({ code: "ABORTED" });
    const late = new AbortController();
    const pending = hook({ messages, signal: late.signal });
    setTimeout(() => late.abort(), 10);
    await expect(pending).rejects.toMatchObject({ code: "ABORTED", name: "CompactionError" });
  });

  it("compact() takes a signal too", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(compact(messages, { ...base, summarize: () => "s", signal: controller.signal })).rejects.toMatchObject(
      { code: "ABORTED" },
    );
  });

  it('onError: "skip" resolves null and reports the error', async () => {
    const onSkipped = vi.fn();
    const hook = compactor({
      ...base,
      onError: "skip",
      events: { onSkipped },
      summarize: () => {
        throw new Error("boom");
      },
    });
    expect(await hook({ messages })).toBeNull();
    expect(onSkipped).toHaveBeenCalledWith(
      expect.objectContaining({ reason: "error", tokensBefore: 5, error: expect.any(CompactionError) }),
    );
  });

  it("countTokens returning NaN, a negative or a non-number is a TypeError naming countTokens", async () => {
    for (const bad of [Number.NaN, -1, "5", undefined, Number.POSITIVE_INFINITY]) {
      const hook = compactor({ maxTokens: 3, countTokens: () => bad as number, summarize: () => "s" });
      await expect(hook({ messages })).rejects.toThrow(TypeError);
      await expect(hook({ messages })).rejects.toThrow(/`countTokens`/);
    }
  });

  it("a callback that throws rejects with that error", async () => {
    const oops = new Error("ui broke");
    const hook = compactor({
      ...base,
      summarize: () => "s",
      events: {
        onCompacting: () => {
          throw oops;
        },
      },
    });
    await expect(hook({ messages })).rejects.toBe(oops);
    const hook2 = compactor({
      ...base,
      summarize: () => "s",
      events: {
        onCompacted: () => {
          throw oops;
        },
      },
    });
    await expect(hook2({ messages })).rejects.toBe(oops);
  });

  it("isCompactionError recognises an error from another copy of the library", () => {
    const foreign = new Error("x");
    Object.defineProperty(foreign, Symbol.for("context-compactor.CompactionError"), { value: true });
    expect(isCompactionError(foreign)).toBe(true);
    expect(isCompactionError(new Error("x"))).toBe(false);
    expect(isCompactionError(null)).toBe(false);
  });
});
