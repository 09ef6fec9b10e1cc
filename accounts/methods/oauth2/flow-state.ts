import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { OneTimeStore } from '../../one-time-store.js';

/**
 * The state of one authorization between its start and its callback, kept in Redis so the
 * callback may land on any gateway replica (spec 5 rule 5, 7.2). The `state` parameter is the
 * key; reading it deletes it (GETDEL), so a callback is finished at most once.
 *
 * A state alone does not prove that the browser finishing the sign-in is the one that started
 * it: an attacker could start a sign-in with their own provider account and plant its callback
 * URL on a victim, who would end up signed in as the attacker (login CSRF, RFC 6749 10.12).
 * So each start is also tied to a client binding, a random value the starting client holds
 * (an httpOnly cookie for browsers, a value in the answer for native clients) and must present
 * at the callback; Redis keeps only its hash.
 */
export type FlowPurpose = 'login' | 'bind';

export interface FlowState {
  instance: string;
  /** Settings fingerprint at the start; a callback under changed settings is refused. */
  fingerprint: string;
  purpose: FlowPurpose;
  /** For `bind`: the signed-in user the identity is bound to. */
  userId?: string;
  pkceVerifier: string;
  /** OIDC only: the ID token must carry it. */
  nonce?: string;
  bindingHash: string;
}

/** Ten minutes: a user may take a while at the provider (password manager, 2FA there). */
export const FLOW_TTL_SECONDS = 600;

/** What the client gets back: base64url of 32 random bytes. */
const CLIENT_BINDING = /^[A-Za-z0-9_-]{43}$/;
export const STATE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export class FlowStates {
  private readonly flows: OneTimeStore<FlowState>;

  constructor(redis: Redis, prefix: string) {
    // The handle is the `state` parameter: 32 random bytes, STATE_PATTERN.
    this.flows = new OneTimeStore(redis, `${prefix}:oauth2:state`, FLOW_TTL_SECONDS, 32);
  }

  /** Stores a new flow; answers its `state` and the client binding (reused when the client already has a valid one). */
  async create(flow: Omit<FlowState, 'bindingHash'>, presentedBinding: string | undefined): Promise<{ state: string; clientBinding: string }> {
    const clientBinding = presentedBinding !== undefined && CLIENT_BINDING.test(presentedBinding) ? presentedBinding : randomBytes(32).toString('base64url');
    const state = await this.flows.put({ ...flow, bindingHash: hashBinding(clientBinding) });
    return { state, clientBinding };
  }

  /** Takes the flow out of Redis; undefined when unknown, expired or already taken. */
  async consume(state: string): Promise<FlowState | undefined> {
    if (!STATE_PATTERN.test(state)) return undefined;
    return this.flows.take(state);
  }
}

export function bindingMatches(flow: FlowState, presented: string | undefined): boolean {
  if (presented === undefined || !CLIENT_BINDING.test(presented)) return false;
  return timingSafeEqual(Buffer.from(hashBinding(presented)), Buffer.from(flow.bindingHash));
}

function hashBinding(binding: string): string {
  return createHash('sha256').update(binding).digest('base64url');
}
