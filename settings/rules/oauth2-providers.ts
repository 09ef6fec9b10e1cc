import type { ValidationResult } from '../definition.js';
import { describeValue, quote } from './describe-value.js';
import { httpUrlProblem } from './http-url.js';
import { isJsonObject, unknownFieldProblem, type JsonObject } from './object-fields.js';

/**
 * `oauth2.providers`: the OAuth2/OIDC provider instances, as ProtoJSON `OAuth2ProviderSettings`
 * objects (lowerCamelCase fields, the provider a oneof of `github` and `oidc`). The
 * `instanceName` names the login entry point (it appears in callback paths and in stored
 * provider bindings), which is why its alphabet and length are fixed and it must be unique.
 */
export interface GithubProviderSettings {
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
}

export interface OidcProviderSettings {
  clientId: string;
  clientSecret: string;
  issuer: string;
  redirectUrl: string;
}

interface ProviderInstance {
  instanceName: string;
  /** Missing or false: no first-time account creation through this provider. */
  enableSignup?: boolean;
  signupNeedReview?: boolean;
}

export type OAuth2ProviderSettings = ProviderInstance &
  ({ github: GithubProviderSettings; oidc?: never } | { oidc: OidcProviderSettings; github?: never });

export const INSTANCE_NAME_MAX_BYTES = 64;

export const OAUTH2_PROVIDERS_RULE =
  'JSON array of {instanceName, enableSignup?, signupNeedReview?, github | oidc}; instanceName unique, 1..=64 of [A-Za-z0-9_-]';

const ELEMENT_FIELDS = ['instanceName', 'enableSignup', 'signupNeedReview', 'github', 'oidc'] as const;
const GITHUB_FIELDS = ['clientId', 'clientSecret', 'redirectUrl'] as const;
const OIDC_FIELDS = ['clientId', 'clientSecret', 'issuer', 'redirectUrl'] as const;
const INSTANCE_NAME = /^[A-Za-z0-9_-]*$/;
const REDIRECT_URL = { httpsUnlessLoopback: false, allowQuery: true } as const;
const ISSUER_URL = { httpsUnlessLoopback: true, allowQuery: false } as const;

export function checkOAuth2Providers(value: unknown): ValidationResult<OAuth2ProviderSettings[]> {
  if (!Array.isArray(value)) {
    return { ok: false, message: `must be a JSON array of provider objects, got ${describeValue(value)}` };
  }
  const providers: OAuth2ProviderSettings[] = [];
  const firstIndex = new Map<string, number>();
  for (const [index, entry] of value.entries()) {
    const checked = checkProvider(entry);
    if (!checked.ok) return { ok: false, message: `element ${index}: ${checked.message}` };
    const name = checked.value.instanceName;
    const earlier = firstIndex.get(name);
    if (earlier !== undefined) {
      return { ok: false, message: `element ${index}: instanceName ${JSON.stringify(name)} duplicates element ${earlier}; instance names must be unique` };
    }
    firstIndex.set(name, index);
    providers.push(checked.value);
  }
  return { ok: true, value: providers };
}

function checkProvider(entry: unknown): ValidationResult<OAuth2ProviderSettings> {
  if (!isJsonObject(entry)) return { ok: false, message: `must be a provider object, got ${describeValue(entry)}` };
  const unknown = unknownFieldProblem(entry, ELEMENT_FIELDS);
  if (unknown !== null) return { ok: false, message: unknown };

  const nameProblem = instanceNameProblem(entry.instanceName);
  if (nameProblem !== null) return { ok: false, message: nameProblem };
  const instance: ProviderInstance = { instanceName: entry.instanceName as string };
  for (const flag of ['enableSignup', 'signupNeedReview'] as const) {
    const flagValue = entry[flag];
    if (flagValue === undefined) continue;
    if (typeof flagValue !== 'boolean') return { ok: false, message: `${flag} must be true or false, got ${describeValue(flagValue)}` };
    instance[flag] = flagValue;
  }

  const hasGithub = entry.github !== undefined;
  const hasOidc = entry.oidc !== undefined;
  if (hasGithub === hasOidc) {
    const found = hasGithub ? 'both github and oidc' : 'neither';
    return { ok: false, message: `must have exactly one provider variant, github or oidc; found ${found}` };
  }
  if (hasGithub) {
    const github = checkVariant(entry.github, 'github', GITHUB_FIELDS);
    return github.ok ? { ok: true, value: { ...instance, github: github.value } } : github;
  }
  const oidc = checkVariant(entry.oidc, 'oidc', OIDC_FIELDS);
  return oidc.ok ? { ok: true, value: { ...instance, oidc: oidc.value } } : oidc;
}

function instanceNameProblem(name: unknown): string | null {
  if (name === undefined) return 'instanceName is required';
  if (typeof name !== 'string') return `instanceName must be a string, got ${describeValue(name)}`;
  if (!INSTANCE_NAME.test(name)) {
    return `instanceName may contain only ASCII letters, digits, "_" and "-", got ${quote(name)}`;
  }
  // Only ASCII gets this far, so characters and bytes agree.
  if (name.length < 1 || name.length > INSTANCE_NAME_MAX_BYTES) {
    return `instanceName must be 1..=${INSTANCE_NAME_MAX_BYTES} bytes long, got ${name.length}`;
  }
  return null;
}

function checkVariant<F extends 'clientId' | 'clientSecret' | 'issuer' | 'redirectUrl'>(
  variant: unknown,
  label: 'github' | 'oidc',
  fields: readonly F[],
): ValidationResult<Record<F, string>> {
  if (!isJsonObject(variant)) return { ok: false, message: `${label} must be an object, got ${describeValue(variant)}` };
  const unknown = unknownFieldProblem(variant, fields);
  if (unknown !== null) return { ok: false, message: `${label}: ${unknown}` };
  const settings = {} as Record<F, string>;
  for (const field of fields) {
    const problem = fieldProblem(variant, field);
    if (problem !== null) return { ok: false, message: `${label}.${field} ${problem}` };
    settings[field] = variant[field] as string;
  }
  return { ok: true, value: settings };
}

function fieldProblem(variant: JsonObject, field: string): string | null {
  const text = variant[field];
  if (text === undefined) return 'is required';
  // Client secrets must not end up in logs, so the rejected value is only described by type.
  if (typeof text !== 'string') return `must be a string, got ${typeof text === 'object' ? describeValue(text) : typeof text}`;
  if (text === '') return 'must be a non-empty string';
  if (field === 'redirectUrl') return httpUrlProblem(text, REDIRECT_URL);
  if (field === 'issuer') return httpUrlProblem(text, ISSUER_URL);
  return null;
}
