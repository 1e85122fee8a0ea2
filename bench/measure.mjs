// Timing: candidates run in alternation in the same process, so drift and warm-up hit all alike.

const now = () => performance.now();

/** Runs each task `samples` times, interleaved after a warm-up; returns milliseconds per run. */
export function compare(tasks, { samples = 15, warmup = 3, minSampleMs = 20 } = {}) {
  const names = Object.keys(tasks);
  // Repeat fast tasks inside one sample so a sample lasts long enough to time.
  const repeat = {};
  for (const name of names) {
    for (let i = 0; i < warmup; i++) tasks[name]();
    const started = now();
    tasks[name]();
    const once = Math.max(now() - started, 0.001);
    repeat[name] = Math.max(1, Math.ceil(minSampleMs / once));
  }
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let sample = 0; sample < samples; sample++) {
    for (const name of sample % 2 ? [...names].reverse() : names) {
      const started = now();
      for (let i = 0; i < repeat[name]; i++) tasks[name]();
      times[name].push((now() - started) / repeat[name]);
    }
  }
  return Object.fromEntries(names.map((name) => [name, summarize(times[name])]));
}

/** `compare` for tasks that may return a promise: each run is awaited before the next starts. */
export async function compareAsync(tasks, { samples = 15, warmup = 3, minSampleMs = 20 } = {}) {
  const names = Object.keys(tasks);
  const repeat = {};
  for (const name of names) {
    for (let i = 0; i < warmup; i++) await tasks[name]();
    const started = now();
    await tasks[name]();
    const once = Math.max(now() - started, 0.001);
    repeat[name] = Math.max(1, Math.ceil(minSampleMs / once));
  }
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let sample = 0; sample < samples; sample++) {
    for (const name of sample % 2 ? [...names].reverse() : names) {
      const started = now();
      for (let i = 0; i < repeat[name]; i++) await tasks[name]();
      times[name].push((now() - started) / repeat[name]);
    }
  }
  return Object.fromEntries(names.map((name) => [name, summarize(times[name])]));
}

/** Times a slow task a few times (no interleaving needed when it is 100× apart). */
export function timeSlow(task, samples = 3) {
  const times = [];
  let result;
  for (let i = 0; i < samples; i++) {
    const started = now();
    result = task();
    times.push(now() - started);
  }
  return { ...summarize(times), result };
}

function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const stats = {
    median: sorted[Math.floor(sorted.length / 2)],
    min: sorted[0],
    max: sorted[sorted.length - 1],
    samples: values.length,
  };
  // The samples in the order taken, for `pairedRatio` (left out of the results file).
  Object.defineProperty(stats, "times", { value: values, enumerable: false });
  return stats;
}

/**
 * How many times `baseline` a task takes: the median, over the samples, of each sample's time over
 * the baseline's sample taken beside it (the two alternate within a sample, see `compare`). A pause
 * of the machine (another process, a collection) slows both of a pair alike, so the ratio holds
 * where a ratio of two medians drifts by several percent from one run to the next. Falls back to
 * the ratio of the medians for timings that were not taken in pairs.
 */
export function pairedRatio(stats, baseline) {
  const { times } = stats;
  const base = baseline.times;
  if (times === undefined || base === undefined || times.length !== base.length) return stats.median / baseline.median;
  const ratios = times.map((time, index) => time / base[index]).sort((a, b) => a - b);
  return ratios[Math.floor(ratios.length / 2)];
}
