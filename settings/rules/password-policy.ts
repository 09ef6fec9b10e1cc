import type { ValidationResult } from '../definition.js';
import { describeValue } from './describe-value.js';

/** `room.passwordPolicy`: whether a room may, must, or must not have a join password. */
export const PASSWORD_POLICIES = ['optional', 'required', 'forbidden'] as const;

export type PasswordPolicy = (typeof PASSWORD_POLICIES)[number];

export const PASSWORD_POLICY_RULE = `one of ${PASSWORD_POLICIES.join(', ')}`;

export function checkPasswordPolicy(value: unknown): ValidationResult<PasswordPolicy> {
  const policy = PASSWORD_POLICIES.find((candidate) => candidate === value);
  if (policy !== undefined) return { ok: true, value: policy };
  return { ok: false, message: `must be ${PASSWORD_POLICY_RULE}, got ${describeValue(value)}` };
}
