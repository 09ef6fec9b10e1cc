import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import * as oidc from 'openid-client';
import { AppError } from '../../../errors/index.js';
import type { RuntimeSettings } from '../../../settings/index.js';
import type { ProviderBinding } from '../../credentials.js';
import type { Caller } from '../../model.js';
import type { RateLimits } from '../../rate-limits.js';
import { reviewError, signupDisabled, type Registration } from '../../registration.js';
import type { SecretBox } from '../../../crypto/index.js';
import type { ClientInfo, SignInResult, SignIn } from '../../sign-in.js';
import { findUserByEmail, findUserById } from '../../users.js';
import { bindIdentity, findBinding, isBindingKeyViolation, listBindings, recordBindingLogin, unbindIdentity, vouchedFor, type BindingView } from './bindings.js';
import { ClientConfigs } from './client-configs.js';
import { authorizationUrl, exchangeCode, type CallbackParams } from './exchange.js';
import { bindingMatches, FlowStates, type FlowState } from './flow-state.js';
import { ProviderInstances, type OAuth2Instance, type ProviderKind } from './instances.js';
import { displayNameFor, usernameBase, usernameCandidates } from './new-account.js';
import type { ProviderProfile } from './profile.js';

/**
 * Sign-in, signup and account binding through the OAuth2/OIDC provider instances of the
 * `oauth2.providers` runtime setting: authorization code flow with PKCE, state and (OIDC)
 * nonce; the flow's state lives in Redis so the callback may reach any replica.
 *
 * An identity (instance, subject) that is bound signs its account in whatever the instance's
 * `enableSignup` says; only creating an account needs it. A first-time identity under
 * `signupNeedReview` files a registration review whose approval creates the account with the
 * binding. Sign-in never links an identity to an existing account by name or email: binding
 * is done by the signed-in owner (`purpose: 'bind'`).
 */
export interface OAuth2MethodDeps {
  pool: pg.Pool;
  redis: Redis;
  settings: RuntimeSettings;
  box: SecretBox;
  registration: Registration;
  signIn: SignIn;
  limits: RateLimits;
  prefix: string;
  configs?: ClientConfigs;
}

type Client = Required<Pick<ClientInfo, 'ip'>> & ClientInfo;

export type StartRequest = { purpose: 'login' } | { purpose: 'bind'; userId: string };

export type CallbackOutcome =
  | { kind: 'signed_in'; result: SignInResult; created: boolean }
  | { kind: 'pending_review'; reviewId: string }
  | { kind: 'bound'; binding: BindingView };

export interface ProviderSummary {
  instanceName: string;
  provider: ProviderKind;
  signupEnabled: boolean;
}

/** Longest external key a registration review id takes (workflows/ids.ts allows 256). */
const MAX_EXTERNAL_KEY_CHARS = 256;

export class OAuth2Method {
  private readonly instances: ProviderInstances;
  private readonly configs: ClientConfigs;
  private readonly states: FlowStates;

  constructor(private readonly deps: OAuth2MethodDeps) {
    this.instances = new ProviderInstances(deps.settings);
    this.configs = deps.configs ?? new ClientConfigs();
    this.states = new FlowStates(deps.redis, deps.prefix);
  }

  /** The configured instances, for a sign-in page's buttons (no client details). */
  providers(): ProviderSummary[] {
    return this.instances.list().map((instance) => ({ instanceName: instance.name, provider: instance.kind, signupEnabled: instance.enableSignup }));
  }

  /** Starts an authorization: the provider URL to send the user to, and the client binding to keep. */
  async start(instanceName: string, request: StartRequest, client: Client & { clientBinding?: string }): Promise<{ authorizationUrl: string; clientBinding: string }> {
    const instance = this.instances.get(instanceName);
    await this.deps.limits.consume('oauth2StartsPerIp', client.ip, 'OAuth2 sign-ins started from this address');
    const config = await this.configs.get(instance);
    const pkceVerifier = oidc.randomPKCECodeVerifier();
    const nonce = instance.kind === 'oidc' ? oidc.randomNonce() : undefined;
    const flow: Omit<FlowState, 'bindingHash'> = {
      instance: instance.name,
      fingerprint: instance.fingerprint,
      purpose: request.purpose,
      ...(request.purpose === 'bind' ? { userId: request.userId } : {}),
      pkceVerifier,
      ...(nonce !== undefined ? { nonce } : {}),
    };
    const { state, clientBinding } = await this.states.create(flow, client.clientBinding);
    const url = await authorizationUrl(config, instance, { state, pkceVerifier, ...(nonce !== undefined ? { nonce } : {}) });
    return { authorizationUrl: url, clientBinding };
  }

  /** Finishes an authorization with what the provider put on the redirect URL. */
  async finish(instanceName: string, params: CallbackParams, context: { clientBinding?: string; caller?: Caller; client: Client }): Promise<CallbackOutcome> {
    const instance = this.instances.get(instanceName);
    await this.deps.limits.consume('signInPerIp', context.client.ip, 'sign-in attempts from this address');
    const flow = await this.states.consume(params.state);
    if (!flow) throw restart('the sign-in state is unknown, expired or already used');
    if (!bindingMatches(flow, context.clientBinding)) {
      throw restart('the sign-in was started by another browser or app (its client binding is missing or different)');
    }
    if (flow.instance !== instance.name) {
      throw restart(`the state was issued for OAuth2 instance ${JSON.stringify(flow.instance)}, not ${JSON.stringify(instance.name)}`);
    }
    if (flow.fingerprint !== instance.fingerprint) throw restart(`the settings of OAuth2 instance ${JSON.stringify(instance.name)} changed during the sign-in`);
    if (flow.purpose === 'bind' && (context.caller?.kind !== 'user' || context.caller.userId !== flow.userId)) {
      throw new AppError('unauthenticated', 'finishing a bind needs the access token of the account that started it');
    }
    if (params.error !== undefined) {
      const description = params.errorDescription ? ` (${params.errorDescription})` : '';
      throw restart(`the provider ended the sign-in with ${params.error}${description}`);
    }
    if (params.code === undefined) throw AppError.invalid([{ key: 'code', message: 'is required unless the provider sent error' }]);

    const config = await this.configs.get(instance);
    const exchanged = await exchangeCode(
      config,
      instance,
      { state: params.state, pkceVerifier: flow.pkceVerifier, ...(flow.nonce !== undefined ? { nonce: flow.nonce } : {}) },
      { ...params, code: params.code },
      this.configs.githubEndpoints,
    );
    const binding: ProviderBinding = {
      instanceName: instance.name,
      subject: exchanged.profile.subject,
      kind: instance.kind,
      issuer: instance.identityIssuer,
      tokens: exchanged.tokens,
    };

    if (flow.purpose === 'bind') {
      const review = await this.deps.registration.openOrRejectedReview({ externalKey: externalKey(binding) });
      if (review?.state === 'pending') throw new AppError('conflict', 'this identity has a signup waiting for review; it cannot be bound to another account meanwhile');
      return { kind: 'bound', binding: await bindIdentity(this.deps.pool, this.deps.box, flow.userId!, binding) };
    }
    const signedIn = await this.signInBound(binding, context.client);
    if (signedIn) return signedIn;
    const review = await this.deps.registration.openOrRejectedReview({ externalKey: externalKey(binding) });
    if (review) throw reviewError(review);
    if (!instance.enableSignup) {
      throw signupDisabled(`OAuth2 instance ${JSON.stringify(instance.name)}`, `oauth2.providers, field enableSignup of instance ${JSON.stringify(instance.name)}`);
    }
    await this.deps.limits.consume('signUpPerIp', context.client.ip, 'signups from this address');
    return this.signup(instance, binding, await exchanged.fullProfile(), context.client);
  }

  /** `configured`: the binding signs in now (its instance exists with the kind and issuer that vouched for it). */
  async listBindings(userId: string): Promise<Array<BindingView & { configured: boolean }>> {
    const instances = new Map(this.instances.list().map((instance) => [instance.name, instance]));
    return (await listBindings(this.deps.pool, userId)).map(({ kind, issuer, ...binding }) => {
      const instance = instances.get(binding.instanceName);
      return { ...binding, configured: instance !== undefined && vouchedFor({ kind, issuer }, { kind: instance.kind, issuer: instance.identityIssuer }) };
    });
  }

  /** Works for instances no longer configured too: a user may clean up after a removed provider. */
  async unbind(userId: string, instanceName: string): Promise<void> {
    const configured = this.instances.list().map((instance) => ({ instanceName: instance.name, kind: instance.kind, issuer: instance.identityIssuer }));
    await unbindIdentity(this.deps.pool, userId, instanceName, configured);
  }

  /**
   * Signs in the account the identity is bound to; undefined when it is bound to none. A
   * binding made through another provider kind or issuer of the instance is refused: the
   * subject is the same string, but someone else vouches for it now.
   */
  private async signInBound(binding: ProviderBinding, client: Client): Promise<CallbackOutcome | undefined> {
    const stored = await findBinding(this.deps.pool, binding.instanceName, binding.subject);
    if (stored === undefined) return undefined;
    if (!vouchedFor(stored, binding)) {
      throw new AppError(
        'unauthenticated',
        `this identity was bound through another identity provider than OAuth2 instance ${JSON.stringify(binding.instanceName)} uses now (${binding.kind} ${binding.issuer}), so it no longer signs in; sign in another way and bind it again`,
      );
    }
    const user = await findUserById(this.deps.pool, stored.userId);
    if (!user) return undefined;
    const result = await this.deps.signIn.complete(user, methodName(binding), client);
    await recordBindingLogin(this.deps.pool, this.deps.box, binding);
    return { kind: 'signed_in', result, created: false };
  }

  private async signup(instance: OAuth2Instance, binding: ProviderBinding, profile: ProviderProfile, client: Client): Promise<CallbackOutcome> {
    const base = usernameBase(profile);
    // An address another account uses stays with that account; the new one simply has none.
    let email = profile.email !== undefined && !(await findUserByEmail(this.deps.pool, profile.email)) ? profile.email : undefined;
    for (const username of usernameCandidates(base)) {
      for (;;) {
        try {
          const outcome = await this.deps.registration.signup(
            'oauth2',
            {
              username: username.name,
              usernameKey: username.key,
              displayName: displayNameFor(profile, username.name),
              ...(email !== undefined ? { email } : {}),
              credential: { type: 'oauth2', binding },
            },
            { needReview: instance.signupNeedReview, externalKey: externalKey(binding) },
          );
          if (outcome.kind === 'pending_review') return { kind: 'pending_review', reviewId: outcome.reviewId };
          const result = await this.deps.signIn.complete(outcome.user, methodName(binding), client);
          return { kind: 'signed_in', result, created: true };
        } catch (err) {
          // The same identity finished a signup in a concurrent callback (two tabs): sign that account in.
          if (isBindingKeyViolation(err)) {
            const signedIn = await this.signInBound(binding, client);
            if (signedIn) return signedIn;
            throw err;
          }
          const field = err instanceof AppError && err.code === 'conflict' ? err.issues[0]?.key : undefined;
          if (field === 'email' && email !== undefined) {
            email = undefined;
            continue;
          }
          if (field === 'username') break;
          throw err;
        }
      }
    }
    throw new AppError('conflict', `no free username could be derived from "${base}" for the new account; try again`);
  }
}

/**
 * The key a registration review of this identity is found by. Subjects may be up to 255
 * characters, so a long one is hashed to keep the review id within Temporal's limit.
 */
export function externalKey(binding: Pick<ProviderBinding, 'instanceName' | 'subject'>): string {
  const plain = `${binding.instanceName}:${binding.subject}`;
  if (plain.length <= MAX_EXTERNAL_KEY_CHARS) return plain;
  return `${binding.instanceName}:sha256:${createHash('sha256').update(binding.subject).digest('base64url')}`;
}

function methodName(binding: ProviderBinding): string {
  return `oauth2:${binding.instanceName}`;
}

function restart(reason: string): AppError {
  return new AppError('unauthenticated', `${reason}; start the sign-in again`);
}
