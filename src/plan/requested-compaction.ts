import type { MessageRecord } from "../dialects/dialect.js";
import type { AnyMessage, CompactToolReader } from "../ground/types.js";
import type { EnginePlan } from "./compaction-plan.js";
import type { PlanContext } from "./plan-context.js";
import { keptFrom, keptUserAnd, type KeptTail } from "./rungs/kept-tail.js";
import { decideOnSummary } from "./summary-decision.js";
import type { TranscriptView } from "./transcript-view.js";

/** The longest note passed on to `summarize`, in characters: a note, not a second transcript. */
export const MAX_NOTE_CHARS = 2000;

/**
 * A compaction the agent asked for: its `compact_context` call, read from the transcript itself,
 * so that nothing waits in a process for a conversation (and no note can reach another's summary).
 */
export interface RequestedCompaction {
  /** Index of the message that holds the call. */
  index: number;
  /** What the model asked the summary to keep (`keep`), at most `MAX_NOTE_CHARS`. */
  note: string;
}

/**
 * The call of the tool named `toolName` in the model's latest reply, when there is one: the
 * messages after the latest user turn, back from the end over the tool results to the newest run
 * of the model's own messages. A call in an earlier reply was answered at its time and is not
 * taken again. Reads only the messages of the latest reply, by their dialect.
 */
export function requestedCompactionIn<M extends AnyMessage>(
  view: TranscriptView<M>,
  messages: readonly M[],
  { from, toolName }: { from: number; toolName: string },
): RequestedCompaction | undefined {
  let index = messages.length - 1;
  // The results that answer the reply come after it.
  while (index >= from && !view.isBoundaryAt(index) && roleAt(view, messages, index) !== "assistant") index--;
  for (; index >= from && !view.isBoundaryAt(index); index--) {
    const role = roleAt(view, messages, index);
    if (role !== "assistant" && role !== undefined) break;
    if (role === undefined) continue;
    const { parts } = view.dialectAt(index).describe(messages[index] as MessageRecord);
    for (let part = parts.length - 1; part >= 0; part--) {
      const said = parts[part];
      if (said?.kind === "call" && said.name === toolName) return { index, note: noteOf(said.input) };
    }
  }
  return undefined;
}

function roleAt<M extends AnyMessage>(
  view: TranscriptView<M>,
  messages: readonly M[],
  index: number,
): string | undefined {
  return view.dialectAt(index).role(messages[index] as MessageRecord);
}

/** The `keep` field of the call's input (an object, or the JSON text of one), within `MAX_NOTE_CHARS`. */
function noteOf(input: unknown): string {
  let fields = input;
  if (typeof input === "string") {
    try {
      fields = JSON.parse(input) as unknown;
    } catch {
      return "";
    }
  }
  const keep = typeof fields === "object" && fields !== null ? (fields as { keep?: unknown }).keep : undefined;
  return typeof keep === "string" ? boundedNote(keep) : "";
}

/** The note within `MAX_NOTE_CHARS`, never cut inside a surrogate pair. */
export function boundedNote(note: string): string {
  if (note.length <= MAX_NOTE_CHARS) return note;
  const code = note.charCodeAt(MAX_NOTE_CHARS - 1);
  return note.slice(0, code >= 0xd800 && code <= 0xdbff ? MAX_NOTE_CHARS - 1 : MAX_NOTE_CHARS);
}

/**
 * What a requested compaction keeps: the latest user message and the tool group the request was
 * made in (the work still open), with everything finished before it summarized. When the request
 * sits in the user turn's first group, the finished work is the turns before it.
 */
function requestedTail<M extends AnyMessage>(
  context: PlanContext<M>,
  request: RequestedCompaction,
): KeptTail<M> | undefined {
  const { view, latestUser, head } = context;
  const safe = view.safeCuts();
  let groupStart = -1;
  for (let index = request.index; index > latestUser; index--) {
    if (safe[index] === 1 && view.opensToolGroupAt(index) && !view.bindsToNextAt(index - 1)) {
      groupStart = index;
      break;
    }
  }
  if (latestUser !== -1 && groupStart > latestUser + 1) return keptUserAnd(context, { user: latestUser, groupStart });
  const start = latestUser !== -1 && context.isTailStart(latestUser) ? latestUser : groupStart;
  return start > head ? keptFrom(context, start) : undefined;
}

/**
 * The plan of a compaction the agent asked for, when it is worth making: what it summarizes is no
 * earlier summary alone, and the summary is asked to be at least `minTokens` smaller than what it
 * replaces, so that the request frees at least that much. A second request made before the
 * transcript has grown by `minTokens` since the last one finds too little finished work to free it.
 * Undefined when it is not worth it: the call then plans as any other.
 */
export function requestedPlan<M extends AnyMessage>(
  context: PlanContext<M>,
  request: RequestedCompaction,
  minTokens: number,
): EnginePlan<M> | undefined {
  const kept = requestedTail(context, request);
  if (kept === undefined || kept.older.every((message) => context.made.has(message))) return undefined;
  // Over budget, a request that keeps more than the room leaves gives way to the ladder.
  if (context.overBudget && context.tailTokens(kept) > context.roomFor(kept)) return undefined;
  const plan = decideOnSummary(context, kept);
  if (plan.action !== "summarize") return undefined;
  const freeing = Math.floor(Math.ceil(plan.olderTokens ?? context.olderTokens(kept)) - minTokens);
  if (freeing < Math.ceil(context.smallestSummary())) return undefined;
  return { ...plan, summaryLimit: Math.min(plan.summaryLimit, freeing), requested: request };
}

/**
 * The reader of the agent's `compact_context` calls, for the compactor's `compactTool` option: a
 * call of the tool named `name` in the model's latest reply makes that call compact, keeping the
 * latest user message and the tool group the call is in, summarizing the finished work before them
 * with the call's `keep` note as instructions, when that frees at least `minTokens`.
 *
 * @param options - `name` (default `"compact_context"`), `minTokens` (default a tenth of `maxTokens`)
 * @returns the reader, for `compactor({ …, compactTool: readCompactContext() })`
 * @example
 * ```ts
 * const hook = compactor({ maxTokens: 100_000, summarize: (older) => `${older.length} earlier messages`, compactTool: readCompactContext({ minTokens: 5_000 }) });
 * ```
 */
export function readCompactContext(options: { name?: string; minTokens?: number } = {}): CompactToolReader {
  return {
    name: options.name ?? "compact_context",
    minTokens: options.minTokens,
    find: requestedCompactionIn as CompactToolReader["find"],
    plan: requestedPlan as CompactToolReader["plan"],
  };
}
