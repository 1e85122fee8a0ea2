#!/usr/bin/env node
// The `context-compactor` command: see what compaction would do to a transcript before wiring it in.
import { closeSync, openSync, readSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { closestKey } from "../ground/closest-key.js";
import { DIALECT_NAMES } from "../ground/constants.js";
import { findToolPairProblems } from "../dialects/tool-pairs.js";
import { formatReport, printable, stripControl } from "./format-report.js";
import { htmlReport } from "./html-report.js";
import { inspectTranscript, planOptionsOf, transcriptFrom, type InspectOptions } from "./inspect.js";
import { messageEntries } from "./message-parts.js";

declare const PACKAGE_VERSION: string;

const help = `Usage: context-compactor inspect <transcript.json | -> [--max-tokens N [--keep-tail M] [--mask] [--split-inside-turn]]
                                  [--format F] [--max-bytes B] [--json] [--html report.html]

Shows a transcript's dialect, message and token counts, its broken tool pairs, and how the
compactor would split it under the budget (head / older / tail), without calling any model.
The file holds a JSON array of messages, an object with a "messages" array, or JSON Lines.

Options:
  --max-tokens N   the budget, a positive integer (without it: counts and tool pairs only)
  --keep-tail M    tokens of recent tail to keep (default: half of --max-tokens)
  --mask           plan with old tool results masked first (the ladder.maskToolResults option)
  --split-inside-turn   plan with in-turn splits on (the ladder.splitInsideTurn option)
  --format F       the message format, when plain text messages would not tell it: one of
                   ${DIALECT_NAMES.join(", ")}
  --max-bytes B    refuse a transcript larger than B bytes (default: 268435456, 256 MB)
  --json           print the report as JSON
  --html FILE      also write the report as one self-contained HTML page: the transcript as a
                   token timeline of what is kept, summarized, masked and cut, each message on click
  -h, --help       show this help
  -v, --version    show the version

Exit codes: 0 ok, 1 a tool-pair problem or an unreadable or invalid transcript, 2 bad arguments.`;

class UsageError extends Error {}

/** The long flags, for "did you mean" on a mistyped one. */
const knownFlags = [
  "max-tokens",
  "keep-tail",
  "mask",
  "split-inside-turn",
  "format",
  "max-bytes",
  "json",
  "html",
  "help",
  "version",
];

function positiveInteger(value: string | undefined, flag: string, minimum: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^[+-]?\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < minimum) {
    throw new UsageError(`${flag} must be an integer from ${minimum} and up, got "${stripControl(value)}"`);
  }
  return number;
}

// parseArgs takes "-5" for an option of its own; a number given to a numeric flag is joined to it.
function joinNegativeNumbers(argv: string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    const next = argv[index + 1];
    if (
      (arg === "--max-tokens" || arg === "--keep-tail" || arg === "--max-bytes") &&
      next !== undefined &&
      /^-\d/.test(next)
    ) {
      joined.push(`${arg}=${next}`);
      index++;
    } else joined.push(arg);
  }
  return joined;
}

/**
 * Reads a transcript file: a JSON array of messages, an object with a `messages` array, or JSON
 * Lines (one message per line, the format most agents log in). A leading byte-order mark is skipped.
 */
function parseTranscriptText(text: string, name: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (error) {
    const lines = body.split(/\r?\n/).filter((line) => line.trim() !== "");
    if (lines.length > 1) {
      return lines.map((line, index) => {
        try {
          return JSON.parse(line);
        } catch (lineError) {
          throw new Error(`${name} is neither JSON nor JSON Lines: line ${index + 1}: ${(lineError as Error).message}`);
        }
      });
    }
    throw new Error(`${name} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The most a transcript may take unless `--max-bytes` says otherwise: 256 MB. */
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

/**
 * Reads a file or standard input, refusing it as soon as it grows past `maxBytes`: a device such
 * as /dev/zero, or a pipe that never ends, must not take all the memory there is.
 */
function readInput(path: string, maxBytes: number): string {
  const name = path === "-" ? "standard input" : path;
  let fd: number;
  try {
    fd = path === "-" ? 0 : openSync(path, "r");
  } catch (error) {
    throw new Error(`cannot read ${name}: ${reason(error)}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, maxBytes + 1 - total));
      let read: number;
      try {
        read = readSync(fd, chunk, 0, chunk.length, null);
      } catch (error) {
        // Standard input set to non-blocking answers EAGAIN until data comes: wait a moment.
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
          continue;
        }
        throw new Error(`cannot read ${name}: ${reason(error)}`);
      }
      if (read === 0) break;
      total += read;
      if (total > maxBytes)
        throw new Error(`${name} is larger than --max-bytes (${maxBytes} bytes); raise it to read a larger transcript`);
      chunks.push(chunk.subarray(0, read));
    }
  } finally {
    if (fd !== 0) closeSync(fd);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (error as Error).message;
}

function run(argv: string[]): number {
  // biome-ignore lint/suspicious/noImplicitAnyLet: TypeScript types it from the parseArgs call that assigns it, with its options
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeNumbers(argv),
      allowPositionals: true,
      options: {
        "max-tokens": { type: "string" },
        "keep-tail": { type: "string" },
        "max-bytes": { type: "string" },
        format: { type: "string" },
        mask: { type: "boolean" },
        "split-inside-turn": { type: "boolean" },
        json: { type: "boolean" },
        html: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (error) {
    const message = (error as Error).message.split("\n")[0] ?? "bad arguments";
    // Node's own words name the option; a near miss gets the option that was meant.
    const unknown = /^Unknown option '([^']*)'/.exec(message)?.[1];
    if (unknown !== undefined) {
      const meant = closestKey(unknown.replace(/^-+/, ""), knownFlags);
      throw new UsageError(
        `unknown option "${stripControl(unknown)}"${meant === undefined ? "" : `. Did you mean "--${meant}"?`}`,
      );
    }
    throw new UsageError(message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(help);
    return 0;
  }
  if (values.version) {
    console.log(PACKAGE_VERSION);
    return 0;
  }
  const [command, file, ...extra] = positionals;
  if (command !== "inspect")
    throw new UsageError(
      command === undefined ? "missing command: inspect" : `unknown command "${stripControl(command)}"`,
    );
  if (file === undefined) throw new UsageError("missing transcript file (or - for standard input)");
  if (extra.length > 0) throw new UsageError(`unexpected argument "${stripControl(extra[0] ?? "")}"`);
  const maxTokens = positiveInteger(values["max-tokens"], "--max-tokens", 1);
  const keepTail = positiveInteger(values["keep-tail"], "--keep-tail", 0);
  if (keepTail !== undefined && maxTokens === undefined) throw new UsageError("--keep-tail needs --max-tokens");
  for (const flag of ["mask", "split-inside-turn"] as const) {
    if (values[flag] && maxTokens === undefined) throw new UsageError(`--${flag} needs --max-tokens`);
  }
  if (values.html === "") throw new UsageError("--html needs a file name");
  if (keepTail !== undefined && maxTokens !== undefined && keepTail >= maxTokens)
    throw new UsageError(`--keep-tail (${keepTail}) must be less than --max-tokens (${maxTokens})`);

  const format = values.format;
  if (format !== undefined && !(DIALECT_NAMES as readonly string[]).includes(format)) {
    const meant = closestKey(format, DIALECT_NAMES);
    throw new UsageError(
      `unknown format "${stripControl(format)}"${meant === undefined ? `: one of ${DIALECT_NAMES.join(", ")}` : `. Did you mean "${meant}"?`}`,
    );
  }

  const maxBytes = positiveInteger(values["max-bytes"], "--max-bytes", 1) ?? DEFAULT_MAX_BYTES;
  const json = parseTranscriptText(readInput(file, maxBytes), file === "-" ? "standard input" : stripControl(file));
  const messages = transcriptFrom(json);
  const options: InspectOptions = {
    maxTokens,
    keepTail,
    maskToolResults: values.mask,
    splitInsideTurn: values["split-inside-turn"],
    format: format as InspectOptions["format"],
  };
  const report = inspectTranscript(file === "-" ? "<stdin>" : file, messages, options);
  console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
  if (values.html !== undefined) {
    const entries = messageEntries(messages, findToolPairProblems(messages), planOptionsOf(options));
    try {
      writeFileSync(values.html, htmlReport(report, entries));
    } catch (error) {
      throw new Error(`cannot write ${stripControl(values.html)}: ${reason(error)}`);
    }
    if (!values.json) console.log(`html: wrote ${printable(values.html)}`);
  }
  return report.toolPairProblems.length > 0 ? 1 : 0;
}

try {
  process.exitCode = run(process.argv.slice(2));
} catch (error) {
  const usage = error instanceof UsageError;
  console.error(`context-compactor: ${stripControl((error as Error).message)}${usage ? " (see --help)" : ""}`);
  process.exitCode = usage ? 2 : 1;
}
