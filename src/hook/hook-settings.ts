/**
 * Where a hook keeps its checked options, for the helpers that answer for it without being in its
 * own bundle (`answerCompactContext`): a symbol of the registry, so a hook of another copy of the
 * package is read as well.
 */
export const HOOK_SETTINGS = Symbol.for("context-compactor.settings");
