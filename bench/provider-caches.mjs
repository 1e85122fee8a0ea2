// The providers' prompt caches as their docs describe them, for `bench:cost`: what a request reads
// from the cache, writes to it and sends as plain input, and what that costs, per provider. Each
// rule is quoted beside its code with the page it comes from. A request is a list of *units*: a
// message, or, where the summary is written as `markFrozenSections()` writes it, one content block
// of the summary each; a unit has a key (its JSON, or its block's text), its tokens, the number of
// content blocks it is in the provider's format, and the number of positions Anthropic's lookback
// counts in it (a run of tool calls is one; `toolResults`: a tool result, which joins the run of
// results before it). A prefix of a request is named by an integer
// (the same prefix of units, the same integer), so that a cache entry is a prefix's integer.
//
// The cache's lifetime is counted in requests, not minutes (the replays have no clock): an entry
// read or written by none of the last `LIFETIME` requests of the conversation is gone, the model
// the bench used before for every provider.
import { o200k } from "./billed.mjs";

export const LIFETIME = 8;

/**
 * Anthropic, Claude Sonnet 4.5 and 4.6, https://platform.claude.com/docs/en/build-with-claude/prompt-caching
 * and https://platform.claude.com/docs/en/about-claude/pricing (read in the page's current text, under
 * "How automatic prefix checking works" and "Cache limitations"):
 * - "Cache writes happen only at your breakpoint. Marking a block with `cache_control` writes exactly
 *   one cache entry: a hash of the prefix ending at that block. The system does not write entries for
 *   any earlier position."
 * - "Cache reads look backward for entries that prior requests wrote. On each request the system
 *   computes the prefix hash at your breakpoint and checks for a matching cache entry. If none exists,
 *   it walks backward one block at a time, checking whether the prefix hash at each earlier position
 *   matches something already in the cache."
 * - "The lookback window is 20 blocks. The system checks at most 20 positions per breakpoint,
 *   counting the breakpoint itself as the first. If the system finds no matching entry in that
 *   window, checking stops (or resumes from the next explicit breakpoint, if any). On the Claude API,
 *   a run of consecutive `tool_use` blocks counts as one position, and so does a run of consecutive
 *   `tool_result` blocks": a breakpoint reads the longest entry that ends at most 19 positions before
 *   it, and no other; the page's example, "Turn 3: 35 blocks, breakpoint on block 35. The system
 *   checks 20 positions (blocks 35 through 16) and finds nothing. The turn-2 entry at block 15 is one
 *   position outside the window".
 * - "the minimum cacheable prompt length is: [...] 1,024 tokens for Claude Opus 4.8, Claude Sonnet 5,
 *   Claude Sonnet 4.6, Claude Sonnet 4.5, [...]. Shorter prompts cannot be cached, even if marked with
 *   `cache_control`."
 * - "You can define up to 4 cache breakpoints" (a request here holds at most 3: the system prompt's,
 *   the frozen sections', the last message's).
 * - Prices per million input tokens, Claude Sonnet 4.6 (4.5 the same): "Base Input Tokens" $3,
 *   "5m Cache Writes" $3.75, "Cache Hits & Refreshes" $0.30 (1.25× and 0.1× the base).
 */
export const anthropicRules = {
  name: "Anthropic",
  prices: { input: 3, write: 3.75, read: 0.3 },
  minimum: 1024,
  // 20 positions, the breakpoint's own the first: an entry at most 19 positions back.
  lookback: { unit: "positions", back: 19 },
  maxBreakpoints: 4,
  perCheckpointMinimum: false,
};

/**
 * Amazon Bedrock (Converse, Claude Sonnet 4.6), https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html
 * and https://aws.amazon.com/bedrock/pricing/:
 * - Cache checkpoints "are markers that define the contiguous subsection of your prompt that you wish
 *   to cache (often referred to as a prompt prefix)": an entry ends at a checkpoint, as with
 *   Anthropic's marker.
 * - "Cache checkpoints have a minimum and maximum number of tokens, dependent on the specific model
 *   you're using. [...] For example, Claude 3.7 Sonnet requires at least 1,024 tokens per cache
 *   checkpoint, while Claude Opus 4.5, Claude Opus 4.6, Claude Haiku 4.5, and Claude Sonnet 4.5
 *   require at least 4,096 tokens per cache checkpoint. That means that for a model with a 1,024-token
 *   minimum, your first cache checkpoint can be defined after 1,024 tokens and your second cache
 *   checkpoint can be defined after 2,048 tokens. If you try to add a cache checkpoint before meeting
 *   the minimum number of tokens, your inference will still succeed, but your prefix will not be
 *   cached." The table of supported models gives Claude Sonnet 4.6 a "Minimum number of tokens per
 *   cache checkpoint" of 1,024 and a "Maximum number of cache checkpoints per request" of 4 (Claude
 *   Sonnet 4.5: 4,096 and 4); Sonnet 4.6 is modelled, at 1,024.
 * - "When you enable simplified cache management, the system automatically checks for cache hits at
 *   previous content block boundaries, looking back up to approximately 20 content blocks from your
 *   specified breakpoint": content blocks, with no word of runs of tool blocks.
 * - Prices: Claude Sonnet 4.6 on Bedrock as on Anthropic's API ($3 input, $3.75 cache write, $0.30
 *   cache read per million tokens; the pricing page was not read word for word for this model).
 */
export const bedrockRules = {
  name: "Bedrock",
  prices: { input: 3, write: 3.75, read: 0.3 },
  minimum: 1024,
  lookback: { unit: "blocks", back: 20 },
  maxBreakpoints: 4,
  perCheckpointMinimum: true,
};

/**
 * Gemini 2.5 Pro, implicit caching, https://ai.google.dev/gemini-api/docs/caching and
 * https://ai.google.dev/gemini-api/docs/pricing:
 * - "Implicit caching is enabled by default for all Gemini 2.5 and newer models. [...] We
 *   automatically pass on cost savings if your request hits caches": no marker, no write fee; a
 *   request reads the longest prefix it shares with a recent request.
 * - "The minimum input token count for context caching is listed in the following table for each
 *   model": "Gemini 2.5 Pro | 2,048".
 * - The docs do not say at what granularity a prefix matches; it is modelled at the boundaries of
 *   parts (a message, or each section where the summary is written one part a section), so a
 *   summary's earlier sections are read only when they are parts of their own.
 * - Prices for Gemini 2.5 Pro per million input tokens: "$1.25, prompts <= 200k tokens", "$2.50,
 *   prompts > 200k tokens"; context caching "$0.125, prompts <= 200k tokens", "$0.25, prompts > 200k".
 */
export const geminiRules = {
  name: "Gemini",
  prices: { input: 1.25, read: 0.125, longInput: 2.5, longRead: 0.25, longFrom: 200_000 },
  minimum: 2048,
};

/**
 * OpenAI, GPT-4.1, https://developers.openai.com/api/docs/guides/prompt-caching:
 * - "Cache hits are only possible for exact prefix matches within a prompt"; "Caching is available
 *   for prompts containing 1024 tokens or more." The guide's earlier text went on: "with cache hits
 *   occurring in increments of 128 tokens. Therefore, the number of cached tokens in a request will
 *   always fall within the following sequence: 1024, 1152, 1280, 1408, and so on" (its usage example
 *   still reads 1,920 cached tokens): the shared prefix in tokens (into a message where two requests'
 *   texts part), from 1,024 and down to a multiple of 128 above it.
 * - "Cache writes have no additional fee on models before the GPT-5.6 family."
 * - GPT-4.1: $2.00 input, $0.50 cached input per million tokens.
 * The explicit `prompt_cache_breakpoint` is for GPT-5.6 and later, whose caching differs ("`implicit`
 * is the default. OpenAI places a cache breakpoint on the latest message and also uses any explicit
 * breakpoints you provide"; "cache writes cost 1.25× the uncached input token rate"); not modelled here.
 */
export const openaiRules = {
  name: "OpenAI",
  prices: { input: 2, read: 0.5 },
  minimum: 1024,
  increment: 128,
};

/** Integers for keys and for prefixes: a prefix is its parent prefix and its last unit's key. */
function prefixNames() {
  const keys = new Map();
  const prefixes = new Map();
  const keyId = (key) => {
    let id = keys.get(key);
    if (id === undefined) keys.set(key, (id = keys.size + 1));
    return id;
  };
  return {
    /** The prefix names of `units`, reusing those of `previous` (its units and names) while they agree. */
    name(units, previous) {
      const names = new Array(units.length);
      let index = 0;
      if (previous !== undefined)
        while (index < units.length && index < previous.units.length && units[index].key === previous.units[index].key)
          names[index] = previous.names[index++];
      for (let parent = index === 0 ? 0 : names[index - 1]; index < units.length; index++) {
        const pair = `${parent},${keyId(units[index].key)}`;
        let id = prefixes.get(pair);
        if (id === undefined) prefixes.set(pair, (id = prefixes.size + 1));
        names[index] = parent = id;
      }
      return names;
    },
  };
}

/**
 * A request's units with their running totals up to and including each: tokens, content blocks, and
 * positions as Anthropic's lookback counts them (a unit's own, `positions`, or its blocks; a unit
 * that continues the run of tool results before it, `toolResults`, adds none).
 */
function measured(units, names) {
  const tokens = new Float64Array(units.length + 1);
  const blocks = new Float64Array(units.length + 1);
  const positions = new Float64Array(units.length + 1);
  for (let index = 0; index < units.length; index++) {
    const unit = units[index];
    tokens[index + 1] = tokens[index] + unit.tokens;
    blocks[index + 1] = blocks[index] + unit.blocks;
    const continuesRun = unit.toolResults === true && units[index - 1]?.toolResults === true;
    positions[index + 1] = positions[index] + (continuesRun ? 0 : (unit.positions ?? unit.blocks));
  }
  return { units, names, tokens, blocks, positions, total: tokens[units.length] };
}

/**
 * A cache of entries at breakpoints (Anthropic, Bedrock). `send` takes the measured request and its
 * breakpoints (unit indices, the marker after that unit), and returns the tokens read, written and plain.
 */
function breakpointCache(rules) {
  const entries = new Map(); // prefix name → the request that last wrote or read it
  let now = 0;
  const alive = (name) => {
    const last = entries.get(name);
    return last !== undefined && now - last <= LIFETIME;
  };
  return (request, breakpoints) => {
    now++;
    const { names, tokens, total } = request;
    const distance = request[rules.lookback.unit];
    // The checkpoints the provider takes: at most its limit, each past its minimum.
    const taken = [];
    let since = 0;
    for (const at of [...new Set(breakpoints)].sort((a, b) => a - b).slice(0, rules.maxBreakpoints)) {
      const length = tokens[at + 1];
      if (length < rules.minimum || (rules.perCheckpointMinimum && length - since < rules.minimum)) continue;
      taken.push(at);
      since = length;
    }
    let readTo = -1; // the last unit read from the cache
    for (const at of taken) {
      for (let index = at; index >= 0 && distance[at + 1] - distance[index + 1] <= rules.lookback.back; index--) {
        if (index <= readTo) break;
        if (alive(names[index])) {
          readTo = index;
          entries.set(names[index], now);
          break;
        }
      }
    }
    for (const at of taken) entries.set(names[at], now);
    const read = readTo < 0 ? 0 : tokens[readTo + 1];
    const writtenTo = taken.length === 0 ? -1 : taken[taken.length - 1];
    const written = Math.max(0, (writtenTo < 0 ? 0 : tokens[writtenTo + 1]) - read);
    return { total, read, written, plain: total - read - written };
  };
}

/**
 * A cache that reads the longest prefix a request shares with one of the last `LIFETIME` requests
 * (Gemini's implicit cache, and the model by whole messages the bench used before), from `minimum`.
 * With `partial`, the prefix goes on into the first unit where the two requests part, as far as
 * their texts agree (OpenAI's token prefix), and is cut to `increment`s above the minimum.
 */
function prefixCache({ minimum, increment = 0, partial = false }) {
  const recent = [];
  return (request) => {
    const { units, names, tokens, total } = request;
    let shared = 0;
    let extra = 0;
    for (const earlier of recent) {
      // Names are prefixes, so the shared run is found by bisection: names agree up to it and differ after.
      let low = 0;
      let high = Math.min(names.length, earlier.names.length);
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (names[middle - 1] === earlier.names[middle - 1]) low = middle;
        else high = middle - 1;
      }
      let more = 0;
      if (partial && low < units.length && low < earlier.units.length)
        more = sharedTextTokens(units[low], earlier.units[low]);
      if (tokens[low] + more > tokens[shared] + extra) {
        shared = low;
        extra = more;
      }
    }
    recent.push(request);
    if (recent.length > LIFETIME) recent.shift();
    let read = tokens[shared] + extra;
    if (read < minimum) read = 0;
    else if (increment > 0) read = minimum + Math.floor((read - minimum) / increment) * increment;
    return { total, read, written: 0, plain: total - read };
  };
}

/** Tokens of the text two units begin with alike, when both are texts of the same role. */
function sharedTextTokens(unit, other) {
  if (typeof unit.text !== "string" || typeof other.text !== "string" || unit.role !== other.role) return 0;
  const a = unit.text;
  const b = other.text;
  let index = 0;
  const end = Math.min(a.length, b.length);
  while (index < end && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  // Never into a surrogate pair, and never more than the unit's own count (the whole text is the unit).
  if (index > 0 && index < a.length && a.charCodeAt(index - 1) >= 0xd800 && a.charCodeAt(index - 1) < 0xdc00) index--;
  return index === 0 ? 0 : Math.min(unit.tokens - 1, o200k(a.slice(0, index)));
}

/** Dollars of a request's split at a provider's prices. */
export function dollarsOf(rules, { total, read, written, plain }) {
  const prices = rules.prices;
  if (prices.longFrom !== undefined && total > prices.longFrom)
    return (read * prices.longRead + (written + plain) * prices.longInput) / 1e6;
  return (read * prices.read + written * (prices.write ?? prices.input) + plain * prices.input) / 1e6;
}

/**
 * The caches of one conversation, every provider beside the others. `send(views, breakpointsOf)`:
 * `views.messages` (one unit a message) and `views.sections` (the summary one unit a section, as
 * `markFrozenSections()` writes it), each `{ units }`; `breakpointsOf(units)` gives the unit indices
 * that carry a marker. Returns per cache its split and dollars.
 */
export function providerCaches() {
  const names = prefixNames();
  let previous = { messages: undefined, sections: undefined };
  const caches = {
    // The model before: whole messages, a prefix shared with a recent request, from 1,024 tokens,
    // written up to the request's breakpoint at Anthropic's prices.
    wholeMessages: prefixCache({ minimum: 1024 }),
    anthropic: breakpointCache(anthropicRules),
    anthropicSections: breakpointCache(anthropicRules),
    bedrock: breakpointCache(bedrockRules),
    bedrockSections: breakpointCache(bedrockRules),
    gemini: prefixCache({ minimum: geminiRules.minimum }),
    geminiSections: prefixCache({ minimum: geminiRules.minimum }),
    openai: prefixCache({ minimum: openaiRules.minimum, increment: openaiRules.increment, partial: true }),
  };
  return {
    send({ messages, sections }, breakpointsOf, wholeBreakpoint) {
      const plain = measured(messages, names.name(messages, previous.messages));
      const split = sections === messages ? plain : measured(sections, names.name(sections, previous.sections));
      previous = { messages: plain, sections: split };
      const whole = caches.wholeMessages(plain);
      // The model before: cached is read; what follows up to its breakpoint is written, the rest plain.
      const afterBreakpoint = Math.min(wholeBreakpoint(plain), whole.total - whole.read);
      const wholeSplit = { ...whole, written: whole.total - whole.read - afterBreakpoint, plain: afterBreakpoint };
      const plainMarks = breakpointsOf(plain.units, false);
      const splitMarks = breakpointsOf(split.units, true);
      const priced = (rules, cost) => ({ ...cost, dollars: dollarsOf(rules, cost) });
      const results = {
        wholeMessages: priced(anthropicRules, wholeSplit),
        anthropic: priced(anthropicRules, caches.anthropic(plain, plainMarks)),
        anthropicSections: priced(anthropicRules, caches.anthropicSections(split, splitMarks)),
        bedrock: priced(bedrockRules, caches.bedrock(plain, plainMarks)),
        bedrockSections: priced(bedrockRules, caches.bedrockSections(split, splitMarks)),
        gemini: priced(geminiRules, caches.gemini(plain)),
        geminiSections: priced(geminiRules, caches.geminiSections(split)),
        openai: priced(openaiRules, caches.openai(plain)),
      };
      return results;
    },
  };
}
