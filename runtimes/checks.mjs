// The result list the end-to-end scripts print: each check by name, passed or failed with why.
export const results = [];

/** Runs one check; what it returns is its detail, what it throws its failure. */
export async function check(name, run) {
  try {
    results.push({ check: name, ok: true, detail: await run() });
  } catch (error) {
    results.push({ check: name, ok: false, detail: String(error?.stack ?? error) });
  }
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}
