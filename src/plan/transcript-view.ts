import type { Dialect, MessageRecord } from "../dialects/dialect.js";
import { claimIndexOf, type MessageFormats } from "../dialects/format-claims.js";
import { isUserTurnIn } from "../dialects/messages.js";
import { dialectAt } from "../dialects/registry.js";
import { walkToolLinks } from "../dialects/tool-links.js";
import type { AnyMessage } from "../ground/types.js";

const UNKNOWN = 0;
const YES = 1;
const NO = 2;

/**
 * One call's reading of its transcript. Each message's format is told once, when the call starts,
 * and every later step (the count, the check of the format, the head, the boundaries, masking,
 * truncation, the summary's framing) asks it here: by index for a message of the transcript, by
 * object for any other message the call meets (a masked or cut copy, a summary it wrote), each of
 * those told the first time it is met. What the stages ask of a message (its role, is it signed,
 * may a tail start here, is a cut before it safe, does it open a tool group) is read once, when
 * first asked, and kept in typed arrays by index: the tail search, the in-turn split and the
 * ladder's last resort ask about the same recent messages, and a caller's `ladder.isBoundary` is
 * called at most once per message per plan.
 */
export class TranscriptView<M extends AnyMessage> implements MessageFormats {
  /** Each message's index in `formatOrder` (below 0: no format claims it, it reads as OpenAI chat; see `claimIndexOf`). */
  private readonly formats: Int8Array;
  // Made on the first ask: a call under budget never asks, and allocates no more than it must.
  private boundaries: Uint8Array | undefined;
  /** 0 unknown, 1 signed, 2 not signed. */
  private signatures: Uint8Array | undefined;
  private dialects: Dialect[] | undefined;
  private safe: Uint8Array | undefined;
  /** The transcript's messages by object, with their formats: made on the first ask by object. */
  private byObject: Map<object, number> | undefined;
  /** Every other message met (a copy, a summary, a stored message), with its format, told when first met. */
  private readonly others = new Map<object, number>();

  /**
   * @param isBoundary - what may start a kept tail; undefined: the default rule (a user message
   *   that carries no tool result), read through the message's dialect
   * @param known - the formats of `messages` when the call has already read them (a stateful call
   *   reads its input, then plans the stored summary and the input it does not cover): asked
   *   instead of telling any message again
   */
  constructor(
    readonly messages: readonly M[],
    private readonly isBoundary: ((message: M) => boolean) | undefined,
    private readonly known?: MessageFormats,
  ) {
    const formats = new Int8Array(messages.length);
    for (let index = 0; index < messages.length; index++)
      formats[index] = known === undefined ? claimIndexOf(messages[index] as object) : known.at(index);
    this.formats = formats;
  }

  /** The format of the message at `index` (see `claimIndexOf`). */
  at(index: number): number {
    return this.formats[index] as number;
  }

  /** The format of any message of this call, told once per object. */
  of(message: object): number {
    if (this.known !== undefined) return this.known.of(message);
    const other = this.others.get(message);
    if (other !== undefined) return other;
    const own = this.transcriptFormats().get(message);
    return own ?? this.outside(message);
  }

  /** The format of a message that is not one of the transcript's (a summary read from the store), told once. */
  outside(message: object): number {
    if (this.known !== undefined) return this.known.of(message);
    let claim = this.others.get(message);
    if (claim === undefined) {
      claim = claimIndexOf(message);
      this.others.set(message, claim);
    }
    return claim;
  }

  /**
   * Records the format of a message a dialect made from one of this call's (a masked or cut copy
   * keeps the shape it was made in), so that it is never told again.
   */
  adopt(copy: object, claim: number): void {
    if (this.known !== undefined) this.known.adopt(copy, claim);
    else this.others.set(copy, claim);
  }

  /** The transcript's messages by object (made on the first ask: a call under budget never needs it). */
  private transcriptFormats(): Map<object, number> {
    if (this.byObject !== undefined) return this.byObject;
    const byObject = new Map<object, number>();
    for (let index = 0; index < this.messages.length; index++)
      byObject.set(this.messages[index] as object, this.formats[index] as number);
    return (this.byObject = byObject);
  }

  /** The dialect of the message at `index`. */
  dialectAt(index: number): Dialect {
    return dialectAt(this.formats[index] as number);
  }

  /** True for a message that carries a signature the provider checks: no rung of the ladder edits it. */
  signedAt(index: number): boolean {
    const signatures = (this.signatures ??= new Uint8Array(this.messages.length));
    let known = signatures[index];
    if (known === UNKNOWN) {
      known = this.dialectAt(index).signed(this.messages[index] as MessageRecord) ? YES : NO;
      signatures[index] = known;
    }
    return known === YES;
  }

  /**
   * True when the message at `index` may have its tool payloads cut or masked: it is not signed,
   * and it does not follow an item bound to it (see `isEditableAt`).
   */
  isEditableAt(index: number): boolean {
    return index < this.messages.length && !this.signedAt(index) && (index === 0 || !this.bindsToNextAt(index - 1));
  }

  /** True when a tail may start at `index` by the boundary rule (the library's own messages aside, which the plan excludes). */
  isBoundaryAt(index: number): boolean {
    const boundaries = (this.boundaries ??= new Uint8Array(this.messages.length));
    let known = boundaries[index];
    if (known === UNKNOWN) {
      const message = this.messages[index] as M;
      known = (this.isBoundary === undefined ? isUserTurnIn(this.dialectAt(index), message) : this.isBoundary(message))
        ? YES
        : NO;
      boundaries[index] = known;
    }
    return known === YES;
  }

  /** For each index, 1 when no tool result at or after it answers a call before it (a cut there separates no pair), else 0. */
  safeCuts(): Uint8Array {
    if (this.safe !== undefined) return this.safe;
    const calledAt = new Map<string, number>();
    const openings = new Int32Array(this.messages.length + 1);
    walkToolLinks(
      this.messages,
      ({ index, key }) => calledAt.set(key, index),
      ({ index, key }) => {
        // A call at `c` answered at `r` forbids every cut in `c+1 … r`.
        const call = calledAt.get(key);
        if (call === undefined || call >= index) return;
        (openings[call + 1] as number)++;
        (openings[index + 1] as number)--;
      },
      this.dialectList(),
    );
    const safe = new Uint8Array(this.messages.length);
    let open = 0;
    for (let index = 0; index < this.messages.length; index++) {
      open += openings[index] as number;
      if (open === 0) safe[index] = 1;
    }
    this.safe = safe;
    return safe;
  }

  /** The dialect of every message, by index. */
  dialectList(): readonly Dialect[] {
    return (this.dialects ??= Array.from(this.formats, (claim) => dialectAt(claim)));
  }

  /** True for a message that may open a complete tool group (an assistant turn, a call item). */
  opensToolGroupAt(index: number): boolean {
    return this.dialectAt(index).opensToolGroup(this.messages[index] as MessageRecord);
  }

  /** True for an item that belongs with the one after it, so no cut may fall right after it. */
  bindsToNextAt(index: number): boolean {
    return this.dialectAt(index).bindsToNext(this.messages[index] as MessageRecord);
  }
}
