/**
 * Keeps the first and last `keep / 2` characters of `text` around a marker that says how many
 * characters were cut: the middle of a long output is the part least likely to matter. Text no
 * longer than `keep` is returned as it is.
 *
 * @param marker - the line put in place of the cut, given the number of characters cut
 */
export function cutMiddle(text: string, keep: number, marker: (cut: number) => string): string {
  const kept = Math.max(0, keep);
  if (text.length <= kept) return text;
  const start = Math.ceil(kept / 2);
  const end = kept - start;
  return `${text.slice(0, start)}\n${marker(text.length - kept)}\n${end > 0 ? text.slice(text.length - end) : ""}`;
}
