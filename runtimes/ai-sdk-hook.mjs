// A module resolution hook (`module.register`): `ai` resolves to the ai@7 installed here as `ai7`,
// so that a file outside runtimes/ (the AI SDK recipe) runs on AI SDK 7 as it is written.
export async function resolve(specifier, context, next) {
  return specifier === "ai" || specifier.startsWith("ai/")
    ? next(specifier.replace(/^ai/, "ai7"), { ...context, parentURL: import.meta.url })
    : next(specifier, context);
}
