/**
 * The checked-in copy of the OpenAPI document (contracts/http/openapi.json): what reviewers read
 * and the web client's types are generated from. `npm run build:openapi` writes it; a test fails
 * when it differs from what the compiled server builds, so the file cannot go stale unnoticed.
 */
import { buildOpenApiDocument } from './openapi.js';

/** Relative to the repository root. */
export const OPENAPI_FILE = 'contracts/http/openapi.json';
export const OPENAPI_BUILD_COMMAND = 'npm run build:openapi';

/** The document as it is checked in: keys sorted at every level, two-space indent, a final newline. */
export function openApiFileText(document: unknown = buildOpenApiDocument()): string {
  return `${JSON.stringify(sortKeys(document), null, 2)}\n`;
}

// Arrays keep their order (it can mean something: enum order, parameter order); only object
// keys, whose order JSON gives no meaning, are sorted, so the file does not change when a
// schema's fields are declared in another order.
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}
