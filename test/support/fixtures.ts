import { readFileSync } from "node:fs";

const root = new URL("../fixtures/transcripts/", import.meta.url);

export interface Fixture {
  file: string;
  source: string;
  messages: Record<string, unknown>[];
}

/** The real transcripts shipped with the tests (see test/fixtures/transcripts/ATTRIBUTION.md). */
export function loadFixtures(): Fixture[] {
  const index = JSON.parse(readFileSync(new URL("index.json", root), "utf8")) as { file: string; source: string }[];
  return index.map(({ file, source }) => ({
    file,
    source,
    messages: JSON.parse(readFileSync(new URL(file, root), "utf8")),
  }));
}
