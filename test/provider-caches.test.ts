// bench:cost's model of each provider's prompt cache (bench/provider-caches.mjs) holds to the rules it
// quotes: where an entry is written, how far back a breakpoint reads, the minimums, the increments.
import { describe, expect, it } from "vitest";
import { providerCaches } from "../bench/provider-caches.mjs";

interface Unit {
  key: string;
  tokens: number;
  blocks: number;
  role: string;
  text?: string;
  positions?: number;
  toolResults?: boolean;
}

const unit = (key: string, tokens: number, role = "user"): Unit => ({ key, tokens, blocks: 1, role });
const system = unit("system", 2000, "system");
/** `count` units of `tokens` each, named from `from`. */
const turns = (from: number, count: number, tokens = 100): Unit[] =>
  Array.from({ length: count }, (_, index) => unit(`turn ${from + index}`, tokens));
/** Markers on the system prompt and the last unit, as a main request carries them. */
const main = (units: Unit[]) => [0, units.length - 1];
const sendAll = (requests: Unit[][], marks = main) => {
  const caches = providerCaches();
  return requests.map((units) => caches.send({ messages: units, sections: units }, marks, () => 0));
};

describe("the providers' caches in bench:cost", () => {
  it("Anthropic reads the entry the last request wrote at its breakpoint, when it ends within 20 positions", () => {
    const first = [system, ...turns(0, 10)];
    const [, second] = sendAll([first, [...first, ...turns(10, 2)]]);
    expect(second?.anthropic).toMatchObject({ read: 3000, written: 200, plain: 0 });
  });

  it("Anthropic reads nothing further back than 20 blocks before a breakpoint, but the system prompt's own entry", () => {
    const first = [system, ...turns(0, 10)];
    const [, second] = sendAll([first, [...first, ...turns(10, 25)]]);
    expect(second?.anthropic).toMatchObject({ read: 2000, written: 3500 });
    // The model by whole messages read the whole shared prefix wherever it ended.
    expect(second?.wholeMessages.read).toBe(3000);
  });

  it("Anthropic checks 20 positions, the breakpoint's own the first (the docs' example: an entry at block 15 is missed from block 35)", () => {
    // Blocks 1–15 (the system prompt and 14 turns), then 19 or 20 blocks more.
    const first = [system, ...turns(0, 14)];
    const [, within] = sendAll([first, [...first, ...turns(14, 19)]]);
    expect(within?.anthropic.read).toBe(3400);
    const [, outside] = sendAll([first, [...first, ...turns(14, 20)]]);
    expect(outside?.anthropic.read).toBe(2000);
    // Bedrock's docs say "approximately 20 content blocks": 20 back is read there.
    expect(outside?.bedrock.read).toBe(3400);
  });

  it("Anthropic counts a run of tool results as one position, Bedrock each result a block", () => {
    const result = (index: number): Unit => ({ ...unit(`result ${index}`, 10, "tool"), toolResults: true });
    const first = [system, ...turns(0, 10)];
    const call: Unit = { ...unit("calls", 50, "assistant"), blocks: 25, positions: 1 };
    const results = Array.from({ length: 25 }, (_, index) => result(index));
    const [, second] = sendAll([first, [...first, call, ...results]]);
    expect(second?.anthropic.read).toBe(3000);
    expect(second?.bedrock.read).toBe(2000);
  });

  it("Anthropic caches nothing under 1,024 tokens, and a prefix never marked is not an entry", () => {
    const short = [unit("a", 500, "system"), unit("b", 400)];
    const [, second] = sendAll([short, [...short, unit("c", 50)]]);
    expect(second?.anthropic.read).toBe(0);
    const long = [system, ...turns(0, 10)];
    // The second request ends inside the first one's prefix, where no breakpoint wrote an entry.
    const [, inside] = sendAll([long, long.slice(0, 8)]);
    expect(inside?.anthropic.read).toBe(2000);
    expect(inside?.gemini.read).toBe(2700);
  });

  it("Bedrock takes a checkpoint only 1,024 tokens after the one before it", () => {
    const units = [system, unit("sections", 500), ...turns(0, 20)];
    const marks = () => [0, 1, units.length - 1];
    const [first] = sendAll([units], marks);
    // The sections' checkpoint is 500 tokens after the system prompt's: Anthropic writes it, Bedrock does not.
    expect(first?.bedrock.written).toBe(4500);
    expect(first?.anthropic.written).toBe(4500);
    const [, again] = sendAll([units, [system, unit("sections", 500), ...turns(100, 30)]], marks);
    expect(again?.anthropic.read).toBe(2500);
    expect(again?.bedrock.read).toBe(2000);
  });

  it("OpenAI reads a token prefix from 1,024 in steps of 128, into a text where two requests part", () => {
    const text = (body: string, tokens: number): Unit => ({ ...unit(body, tokens), text: body });
    const shared = "word ".repeat(300);
    const first = [unit("system", 1000, "system"), text(`${shared}end A`, 400)];
    const [, second] = sendAll([first, [unit("system", 1000, "system"), text(`${shared}end B`, 400)]]);
    // 1,000 tokens of the system prompt and about 302 of the texts' shared start: 1,024 + 2 × 128.
    expect(second?.openai.read).toBe(1280);
    expect(second?.wholeMessages.read).toBe(0);
    const [, whole] = sendAll([first, [...first, unit("more", 10)]]);
    expect(whole?.openai.read).toBe(1024 + 128 * 2);
  });

  it("Gemini reads the shared prefix from 2,048 tokens, with no write fee", () => {
    const first = [unit("system", 1500, "system"), unit("a", 400)];
    const [, short] = sendAll([first, [...first, unit("b", 10)]]);
    expect(short?.gemini.read).toBe(0);
    const long = [system, ...turns(0, 5)];
    const [, second] = sendAll([long, [...long, unit("b", 10)]]);
    expect(second?.gemini).toMatchObject({ read: 2500, written: 0, plain: 10 });
    expect(second?.gemini.dollars).toBeCloseTo((2500 * 0.125 + 10 * 1.25) / 1e6, 12);
  });

  it("prices a split at Anthropic's 0.1× read and 1.25× write", () => {
    const first = [system, ...turns(0, 10)];
    const [, second] = sendAll([first, [...first, ...turns(10, 2)]]);
    expect(second?.anthropic.dollars).toBeCloseTo((3000 * 0.3 + 200 * 3.75) / 1e6, 12);
  });
});
