// Assertions shared by the registry tests: a value is accepted by a key, or rejected with a
// message that names the broken rule and leaves the key to the caller's prefix.
import type { ExecutionContext } from 'ava';
import { findDefinition } from '../../settings/registry.js';
import type { SettingDefinition, ValidationResult } from '../../settings/definition.js';

export function definition(key: string): SettingDefinition {
  const found = findDefinition(key);
  if (found === undefined) throw new Error(`no setting ${key}`);
  return found;
}

export function expectAccepted(t: ExecutionContext, result: ValidationResult<unknown>, what: string): unknown {
  if (!result.ok) {
    t.fail(`${what} was rejected: ${result.message}`);
    return undefined;
  }
  t.pass();
  return result.value;
}

export function expectRejected(
  t: ExecutionContext,
  key: string,
  result: ValidationResult<unknown>,
  fragment: string,
  what: string,
): void {
  if (result.ok) {
    t.fail(`${what} was accepted as ${JSON.stringify(result.value)}`);
    return;
  }
  t.true(result.message.includes(fragment), `${what}: message ${JSON.stringify(result.message)} lacks ${JSON.stringify(fragment)}`);
  t.false(result.message.includes(key), `${what}: message repeats the key: ${result.message}`);
}

export function accepts(t: ExecutionContext, key: string, value: unknown): unknown {
  return expectAccepted(t, definition(key).validate(value), `${key} = ${JSON.stringify(value)}`);
}

export function rejects(t: ExecutionContext, key: string, value: unknown, fragment: string): void {
  expectRejected(t, key, definition(key).validate(value), fragment, `${key} = ${JSON.stringify(value)}`);
}
