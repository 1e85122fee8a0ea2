import { walkToolLinks } from "../dialects/tool-links.js";

/**
 * For each index, 1 when no tool result at or after it answers a call before it (a cut there
 * separates no pair), else 0.
 * A call at `c` answered at `r` forbids every cut in `c+1 … r`.
 */
export function safeCuts(messages: readonly object[]): Uint8Array {
  const calledAt = new Map<string, number>();
  const openings = new Int32Array(messages.length + 1);
  walkToolLinks(
    messages,
    ({ index, key }) => calledAt.set(key, index),
    ({ index, key }) => {
      const call = calledAt.get(key);
      if (call === undefined || call >= index) return;
      (openings[call + 1] as number)++;
      (openings[index + 1] as number)--;
    },
  );
  const safe = new Uint8Array(messages.length);
  let open = 0;
  for (let index = 0; index < messages.length; index++) {
    open += openings[index] as number;
    if (open === 0) safe[index] = 1;
  }
  return safe;
}
