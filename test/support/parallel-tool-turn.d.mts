/** A short chat, then one assistant message calling `count` tools and their `count` results. */
export declare function parallelToolTurn(count: number): Record<string, unknown>[];
