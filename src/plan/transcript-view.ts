import type { Dialect, MessageRecord } from "../dialects/dialect.js";
import { isUserTurnIn } from "../dialects/messages.js";
import { dialectOf } from "../dialects/registry.js";
import { walkToolLinks } from "../dialects/tool-links.js";
import type { AnyMessage } from "../ground/types.js";

const UNKNOWN = 0;
const YES = 1;
const NO = 2;

/**
 * One plan's reading of its transcript. Each message's dialect is looked up once, and what the
 * stages ask of a message (may a tail start here, is a cut before it safe, does it open a tool
 * group) is read once, when first asked, and kept in typed arrays by index: the tail search, the
 * in-turn split and the ladder's last resort ask about the same recent messages, and a caller's
 * `ladder.isBoundary` is called at most once per message per plan.
 */
export class TranscriptView<M extends AnyMessage> {
  private readonly dialects: Dialect[];
  private readonly boundaries: Uint8Array;
  private safe: Uint8Array | undefined;

  /**
   * @param isBoundary - what may start a kept tail; undefined: the default rule (a user message
   *   that carries no tool result), read through the message's dialect
   */
  constructor(
    readonly messages: readonly M[],
    private readonly isBoundary: ((message: M) => boolean) | undefined,
  ) {
    this.dialects = messages.map((message) => dialectOf(message));
    this.boundaries = new Uint8Array(messages.length);
  }

  /** True when a tail may start at `index` by the boundary rule (the library's own messages aside, which the plan excludes). */
  isBoundaryAt(index: number): boolean {
    let known = this.boundaries[index];
    if (known === UNKNOWN) {
      const message = this.messages[index] as M;
      known = (this.isBoundary === undefined ? isUserTurnIn(this.dialects[index] as Dialect, message) : this.isBoundary(message)) ? YES : NO;
      this.boundaries[index] = known;
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
      this.dialects,
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

  /** True for a message that may open a complete tool group (an assistant turn, a call item). */
  opensToolGroupAt(index: number): boolean {
    return (this.dialects[index] as Dialect).opensToolGroup(this.messages[index] as MessageRecord);
  }

  /** True for an item that belongs with the one after it, so no cut may fall right after it. */
  bindsToNextAt(index: number): boolean {
    return (this.dialects[index] as Dialect).bindsToNext(this.messages[index] as MessageRecord);
  }
}
