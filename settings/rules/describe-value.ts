/**
 * Renders a rejected value for the "got ..." tail of a validation message, so an operator
 * sees what was actually sent (a string "10" versus the number 10 is the usual surprise).
 * Long strings are cut: messages go to logs and terminals.
 */
const MAX_SHOWN = 60;

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `string ${quote(value)}`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return 'nothing';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/** JSON-quotes text for a message, shortening it when it is long. */
export function quote(text: string): string {
  const shown = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
  return JSON.stringify(shown);
}
