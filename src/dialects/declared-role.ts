/**
 * A message's `role` field as it stands, before any format reads it: the transcript check refuses
 * a role that is not a string (a format that has roles names them with strings; one without roles,
 * Genkit's or LangChain's typed messages, leaves the field out).
 */
export function declaredRole(message: object): unknown {
  return (message as { role?: unknown }).role;
}
