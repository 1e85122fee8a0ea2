/** Twenty texts of `length` characters, by name. */
export declare function adversarialTexts(length: number): Record<string, string>;
/** The library's paths that read untrusted text, each as a function of one text, given the library. */
export declare function untrustedTextPaths(library: {
  buildSummaryPrompt: (...args: never[]) => unknown;
  compact: (...args: never[]) => unknown;
  extractiveSummary: (...args: never[]) => unknown;
  planCompaction: (...args: never[]) => unknown;
  renderTranscript: (...args: never[]) => unknown;
}): Record<string, (text: string) => unknown>;
