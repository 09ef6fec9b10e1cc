/**
 * Registers the review workflows' custom search attributes in a namespace. The local stack's
 * dev server is started with them (`--search-attribute`); a production namespace gets them
 * here, when a worker starts. Idempotent, and safe when several workers start at once.
 */
import type { Connection } from '@temporalio/client';
import { AppError } from '../errors/index.js';
import { REVIEW_SEARCH_ATTRIBUTES } from './ids.js';

type OperatorService = Connection['operatorService'];
/** temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD (a wire value; it never changes). */
const KEYWORD = 2;
/** gRPC status code. */
const ALREADY_EXISTS = 6;

/** Both the client's Connection and the worker's NativeConnection have an operator service. */
export interface HasOperatorService {
  operatorService: OperatorService;
}

/** Adds the missing ones; `conflict` when one exists with another type. Returns the names added. */
export async function ensureSearchAttributes(connection: HasOperatorService, namespace: string): Promise<string[]> {
  const missing = await missingAttributes(connection, namespace);
  if (missing.length === 0) return [];
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((name) => [name, KEYWORD])),
    });
  } catch (err) {
    // Another worker added them between our read and our write.
    if ((err as { code?: number }).code !== ALREADY_EXISTS) throw err;
  }
  const still = await missingAttributes(connection, namespace);
  if (still.length > 0) throw new AppError('unavailable', `search attributes ${still.join(', ')} could not be registered in namespace "${namespace}"`);
  return missing;
}

async function missingAttributes(connection: HasOperatorService, namespace: string): Promise<string[]> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const existing = customAttributes ?? {};
  const missing: string[] = [];
  for (const key of REVIEW_SEARCH_ATTRIBUTES) {
    const type = existing[key.name];
    if (type === undefined || type === null) {
      missing.push(key.name);
    } else if (Number(type) !== KEYWORD) {
      throw new AppError('conflict', `search attribute ${key.name} exists in namespace "${namespace}" with another type than Keyword; the review workflows need it as Keyword`);
    }
  }
  return missing;
}
