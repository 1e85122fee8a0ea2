/**
 * Reported to `events.onStoreError` when an archive reached `archive.maxBytes` and its oldest messages
 * were dropped to make room for newer ones: `dropped` lists their positions in the conversation,
 * oldest first. Nothing failed: the newer messages were archived, and recall finds them.
 *
 * @example
 * ```ts
 * const onStoreError = (error: unknown) => {
 *   if (error instanceof ArchiveTrimmedError) console.warn(`archive full: ${error.dropped.length} messages dropped`);
 * };
 * ```
 */
export class ArchiveTrimmedError extends Error {
  override name = "ArchiveTrimmedError";
  /** The positions of the dropped messages in the conversation, oldest first. */
  readonly dropped: readonly number[];

  /**
   * @param dropped - the positions of the dropped messages, oldest first
   * @param maxBytes - the bound that was reached
   */
  constructor(dropped: readonly number[], maxBytes: number) {
    super(`The archive reached \`archive.maxBytes\` (${maxBytes} bytes): ${dropped.length} of its oldest messages were dropped (positions ${dropped[0]}–${dropped[dropped.length - 1]})`);
    this.dropped = dropped;
  }
}
