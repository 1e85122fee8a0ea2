/** Crossings of `budget` in the requests a model received (see crossings.mjs). */
export function crossingsOf(requests: readonly (readonly unknown[])[], budget: number): number;
