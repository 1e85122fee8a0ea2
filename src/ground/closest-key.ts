function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The known option a mistyped key most likely meant: the same letters in another case or
 * separator style (`max_tokens` → `maxTokens`), or the nearest by edit distance, if near enough.
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const normalized = normalizeKey(key);
  const sameLetters = known.find((candidate) => normalizeKey(candidate) === normalized);
  if (sameLetters) return sameLetters;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(normalized.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(normalized, normalizeKey(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
