/**
 * AuthService: sign-in for native clients over the accounts module, exactly as the HTTP routes
 * of `gateways/http/routes/auth.ts` (same input schemas from `api/auth.ts`, same rate limits with
 * the peer's address). The refresh token is always in the answer: gRPC has no cookies.
 */
import type { Accounts } from '../../../accounts/index.js';
import type { SignInResult } from '../../../accounts/index.js';
import type { User } from '../../../accounts/index.js';
import { AppError } from '../../../errors/index.js';
import * as api from '../../../contracts/http/auth.js';
import { twoFactorVerify } from '../../../contracts/http/two-factor.js';
import type { z } from 'zod';
import { parseOrInvalid } from '../../../errors/index.js';
import type { GrpcCalls } from '../call.js';
import type { Handlers } from '../service-table.js';
import type { AuthServiceHandlers } from '../gen/svc/v1/AuthService.js';
import type { Session__Output } from '../gen/svc/v1/Session.js';
import type { SignInResponse__Output } from '../gen/svc/v1/SignInResponse.js';
import type { User__Output } from '../gen/svc/v1/User.js';

const SERVICE_ROLE = { root: 'SERVICE_ROLE_ROOT', admin: 'SERVICE_ROLE_ADMIN', user: 'SERVICE_ROLE_USER' } as const;
const USER_STATE = { active: 'USER_STATE_ACTIVE', banned: 'USER_STATE_BANNED' } as const;

export function authService(calls: GrpcCalls, accounts: Accounts): Handlers<AuthServiceHandlers> {
  return {
    SignInWithPassword: calls.publicUnary(async (request, ctx) => {
      const body = check(api.passwordLogin.body, { username: request.username, password: request.password });
      return signInResponse(await accounts.password.login(body, ctx.client));
    }),
    StartOpaqueLogin: calls.publicUnary(async (request, ctx) => {
      const body = check(api.opaqueLoginStart.body, { username: request.username, startLoginRequest: request.startLoginRequest });
      return accounts.opaque.loginStart(body, ctx.client);
    }),
    FinishOpaqueLogin: calls.publicUnary(async (request, ctx) => {
      const body = check(api.opaqueLoginFinish.body, { loginId: request.loginId, finishLoginRequest: request.finishLoginRequest });
      return signInResponse(await accounts.opaque.loginFinish(body, ctx.client));
    }),
    VerifySecondFactor: calls.publicUnary(async (request, ctx) => {
      const body = check(twoFactorVerify.body, { challengeToken: request.challengeToken, code: request.code });
      const signedIn = await accounts.totp.verifyChallenge(body, ctx.client);
      return { ...session(signedIn), user: userMessage(signedIn.user), principal: 'user' };
    }),
    SignInAsGuest: calls.publicUnary(async (request, ctx) => {
      const body = check(api.guestSignIn.body, { displayName: request.displayName });
      if (!accounts.deps.settings.get('user.enableGuest')) throw new AppError('forbidden', 'guest access is disabled on this server (runtime setting user.enableGuest)');
      await accounts.limits.consume('signUpPerIp', ctx.client.ip, 'new sessions from this address');
      const guest = await accounts.signIn.guest(body.displayName.trim(), ctx.client);
      return { ...session(guest), guest: { id: guest.guest.id, displayName: guest.guest.displayName }, principal: 'guest' };
    }),
    RefreshSession: calls.publicUnary(async (request) => {
      if (!request.refreshToken) throw new AppError('unauthenticated', 'no refresh token: send refresh_token from the last sign-in or refresh');
      const body = check(api.refreshSession.body, { refreshToken: request.refreshToken });
      return session(await accounts.signIn.refresh(body?.refreshToken ?? request.refreshToken));
    }),
    SignOut: calls.unary(async (_request, ctx) => {
      await accounts.sessions.revoke(ctx.caller.sessionId, 'logout', 'logout');
      return {};
    }),
  };
}

/** The HTTP endpoint's body schema, so both transports accept exactly the same input. */
function check<S extends z.ZodType>(schema: S | undefined, value: unknown): z.output<S> {
  if (!schema) throw new Error('the endpoint declares no body schema');
  return parseOrInvalid(schema, value);
}

interface SessionTokens {
  sessionId: string;
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  refreshExpiresAt: Date;
}

function session(tokens: SessionTokens): Session__Output {
  return {
    accessToken: tokens.accessToken,
    tokenType: 'Bearer',
    expiresIn: tokens.expiresIn,
    refreshToken: tokens.refreshToken,
    refreshExpiresAt: tokens.refreshExpiresAt.getTime(),
    sessionId: tokens.sessionId,
  };
}

function signInResponse(result: SignInResult): SignInResponse__Output {
  if (result.status === 'second_factor_required') {
    return { secondFactorRequired: { challengeToken: result.challengeToken, methods: [...result.methods] }, result: 'secondFactorRequired' };
  }
  return { session: { ...session(result), user: userMessage(result.user), principal: 'user' }, result: 'session' };
}

/** The user as HTTP's `userView` shows it, with times in ms. */
export function userMessage(user: User): User__Output {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    ...(user.email !== null ? { email: user.email } : {}),
    role: SERVICE_ROLE[user.role],
    state: USER_STATE[user.state],
    createdAt: user.createdAt.getTime(),
    ...(user.lastLoginAt ? { lastLoginAt: user.lastLoginAt.getTime() } : {}),
  };
}
