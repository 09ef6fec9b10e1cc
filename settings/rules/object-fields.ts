/**
 * Helpers for the JSON-object shapes in settings (OAuth2 providers, ICE servers). Objects
 * are closed: a misspelt field would otherwise be ignored silently and the operator would
 * wonder why their setting has no effect.
 */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Names the first field outside `allowed`, as a message fragment, or null when there is none. */
export function unknownFieldProblem(object: JsonObject, allowed: readonly string[]): string | null {
  const unknown = Object.keys(object).find((field) => !allowed.includes(field));
  if (unknown === undefined) return null;
  return `unknown field ${JSON.stringify(unknown)} (allowed: ${allowed.join(', ')})`;
}
