/**
 * Reported to `events.onStoreError` when an archive left messages out to stay within
 * `archive.maxBytes`: `dropped` lists the positions in the conversation of its oldest messages,
 * dropped to make room for newer ones, and `skipped` those of messages larger than the bound by
 * themselves, which were not archived (the others were). Nothing failed: every other message was
 * archived, and recall finds it.
 *
 * @example
 * ```ts
 * const onStoreError = (error: unknown) => {
 *   if (error instanceof ArchiveTrimmedError) console.warn(`archive full: ${error.dropped.length} dropped, ${error.skipped.length} too large`);
 * };
 * ```
 */
export class ArchiveTrimmedError extends Error {
  override name = "ArchiveTrimmedError";
  /** The positions of the dropped messages in the conversation, oldest first. */
  readonly dropped: readonly number[];
  /** The positions of the messages larger than `archive.maxBytes` by themselves, which were not archived. */
  readonly skipped: readonly number[];

  /**
   * @param dropped - the positions of the dropped messages, oldest first
   * @param maxBytes - the bound that was reached
   * @param skipped - the positions of the messages too large to archive at all
   */
  constructor(dropped: readonly number[], maxBytes: number, skipped: readonly number[] = []) {
    const said = [
      ...(dropped.length === 0
        ? []
        : [
            `${dropped.length} of its oldest messages were dropped (positions ${dropped[0]}–${dropped[dropped.length - 1]})`,
          ]),
      ...(skipped.length === 0
        ? []
        : [
            `${skipped.length} larger than \`archive.maxBytes\` by itself ${skipped.length === 1 ? "was" : "were"} not archived (position${skipped.length === 1 ? "" : "s"} ${skipped.join(", ")})`,
          ]),
    ];
    super(`The archive reached \`archive.maxBytes\` (${maxBytes} bytes): ${said.join("; ")}`);
    this.dropped = dropped;
    this.skipped = skipped;
  }
}
