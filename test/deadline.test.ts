// The one race behind every timeout and abort: the summarizer's, each store call's, the lease wait.
import { afterEach, describe, expect, it, vi } from "vitest";
import { LONGEST_TIMEOUT_MS, optionalMilliseconds, pause, raceDeadline } from "../src/ground/deadline.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("raceDeadline", () => {
  it("settles as the promise does when it comes first, and leaves no timer or listener behind", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, "removeEventListener");
    await expect(raceDeadline(Promise.resolve(7), { timeoutMs: 1_000, signal: controller.signal })).resolves.toBe(7);
    expect(vi.getTimerCount()).toBe(0);
    expect(remove).toHaveBeenCalled();
    await expect(raceDeadline(Promise.reject(new Error("no")), { timeoutMs: 1_000 })).rejects.toThrow("no");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects at the timeout even if the promise never settles, tells the work to stop, and ignores a late rejection", async () => {
    vi.useFakeTimers();
    const unhandled = vi.fn();
    process.on("unhandledRejection", unhandled);
    let rejectLate: (error: Error) => void = () => {};
    const late = new Promise<never>((_, reject) => (rejectLate = reject));
    const interrupted = vi.fn();
    const race = raceDeadline(late, { timeoutMs: 30, timedOut: () => new Error("too slow"), interrupted });
    const settled = race.catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(29);
    expect(interrupted).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled).toBe("too slow");
    expect(interrupted).toHaveBeenCalledWith(expect.objectContaining({ message: "too slow" }));
    rejectLate(new Error("late"));
    await vi.advanceTimersByTimeAsync(0);
    process.off("unhandledRejection", unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });

  it("rejects with ABORTED as soon as the signal aborts, or at once when it already has", async () => {
    const controller = new AbortController();
    const race = raceDeadline(new Promise<never>(() => {}), { signal: controller.signal });
    controller.abort("stop");
    await expect(race).rejects.toMatchObject({ code: "ABORTED", cause: "stop" });
    await expect(raceDeadline(Promise.resolve(1), { signal: controller.signal })).rejects.toMatchObject({
      code: "ABORTED",
    });
  });
});

describe("pause", () => {
  it("waits the time on a fake clock, and an abort ends it", async () => {
    vi.useFakeTimers();
    let done = false;
    const waiting = pause(100, undefined).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
    const controller = new AbortController();
    const aborted = pause(100, controller.signal);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: "ABORTED" });
  });
});

describe("optionalMilliseconds", () => {
  it("takes a positive number up to the longest timeout a timer keeps, and names the option otherwise", () => {
    expect(optionalMilliseconds(undefined, "timeoutMs")).toBeUndefined();
    expect(optionalMilliseconds(LONGEST_TIMEOUT_MS, "timeoutMs")).toBe(LONGEST_TIMEOUT_MS);
    expect(() => optionalMilliseconds("5", "storeTimeoutMs")).toThrow(TypeError);
    expect(() => optionalMilliseconds(0, "storeTimeoutMs")).toThrow(
      "Expected `storeTimeoutMs` to be a positive number of milliseconds up to 2147483647, got `0` (number)",
    );
    expect(() => optionalMilliseconds(LONGEST_TIMEOUT_MS + 1, "timeoutMs")).toThrow(RangeError);
  });
});
