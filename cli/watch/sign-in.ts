/**
 * Signing `svc watch` in on the room's server, as the web page does: with a password through
 * OPAQUE (the password never leaves this process; an account whose password is still only an
 * Argon2id hash is told to use the direct transport once, as the web client does), or as a
 * guest with a display name. The session is a native client's (tokens in the body).
 */
import * as opaque from '@serenity-kit/opaque';
import { AppError } from '../../errors/index.js';
import { ApiError } from '../../web/index.js';
import type { RoomApi } from './room-api.js';

interface SignInAnswer {
  status: 'signed_in' | 'second_factor_required';
  accessToken?: string;
  refreshToken?: string;
  user?: { username: string; displayName?: string };
  guest?: { displayName?: string };
}

/** The name the server knows us by, once signed in. */
export async function signInAsGuest(api: RoomApi, displayName: string): Promise<string> {
  try {
    take(api, await api.post<SignInAnswer>('/api/auth/guest', { displayName }));
  } catch (err) {
    throw explained(err, 'guest sign-in');
  }
  return displayName;
}

export async function signInWithPassword(api: RoomApi, username: string, password: string): Promise<string> {
  try {
    await opaque.ready;
    const { clientLoginState, startLoginRequest } = opaque.client.startLogin({ password });
    const start = await api.post<{ loginId: string; loginResponse: string; useDirectPassword?: true }>('/api/auth/opaque/login/start', { username, startLoginRequest });
    if (start.useDirectPassword) {
      take(api, await api.post<SignInAnswer>('/api/auth/password/login', { username, password }));
      return username;
    }
    const finished = opaque.client.finishLogin({ clientLoginState, loginResponse: start.loginResponse, password });
    // With OPAQUE the client is the one that finds a wrong password out, and sends nothing more.
    if (!finished) throw new AppError('unauthenticated', `wrong username or password for ${username}`);
    take(api, await api.post<SignInAnswer>('/api/auth/opaque/login/finish', { loginId: start.loginId, finishLoginRequest: finished.finishLoginRequest }));
  } catch (err) {
    throw explained(err, 'sign-in');
  }
  return username;
}

function take(api: RoomApi, answer: SignInAnswer): void {
  if (answer.status === 'second_factor_required') {
    throw new AppError('unauthenticated', 'this account asks for a second factor, which svc watch cannot give yet: join as a guest (--guest <name>), or use an account without two-factor sign-in');
  }
  if (!answer.accessToken) throw new AppError('unavailable', 'the server answered the sign-in without a session');
  api.session = { accessToken: answer.accessToken, ...(answer.refreshToken ? { refreshToken: answer.refreshToken } : {}) };
}

/** The server's own words, as an AppError the command prints (`error[code]: message`). */
export function explained(err: unknown, what: string): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ApiError) {
    const message = err.status === 401 && what === 'sign-in' ? `${what} refused: ${err.message}` : `${what}: ${err.message}`;
    return new AppError(err.code, message, [], err.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.retryAfterSeconds } : {});
  }
  return new AppError('unavailable', `${what}: ${err instanceof Error ? err.message : String(err)}`);
}
