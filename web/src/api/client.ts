/**
 * The typed API client: `openapi-fetch` over the paths of /api/openapi.json (generated at build
 * into openapi.gen.ts), so a path, a parameter or a body the server does not declare is a type
 * error here. The access token lives in memory only; the refresh token is an httpOnly cookie
 * the page never sees, exchanged for a new access token shortly before it expires and once
 * after a 401, by one tab at a time (refresh-across-tabs.ts).
 */
import createClient, { type Middleware } from 'openapi-fetch';
import { t } from '../i18n/i18n.js';
import { ApiError, asApiError, retryAfterOf } from './errors.js';
import { browserAcrossTabs } from './refresh-across-tabs.js';
import type { paths, Schemas } from './types.js';

export const api = createClient<paths>({ baseUrl: '' });

interface AccessToken {
  token: string;
  /** Local ms after which it is about to expire. */
  renewAt: number;
}

let access: AccessToken | null = null;
let refreshing: Promise<RefreshOutcome> | null = null;
const listeners = new Set<(signedIn: Schemas['SignedIn'] | null) => void>();

/** Renew this long before the server's expiry, so a request in flight never carries a stale token. */
const RENEW_MARGIN_MS = 30_000;

export function useAccess(signedIn: Schemas['SignedIn']): void {
  access = { token: signedIn.accessToken, renewAt: Date.now() + Math.max(0, signedIn.expiresIn * 1000 - RENEW_MARGIN_MS) };
}

export function dropAccess(): void {
  access = null;
}

export function accessToken(): string | null {
  return access?.token ?? null;
}

/**
 * What a refresh came to: a new session view, null once the server refused the cookie (the
 * session is gone), or `unreachable` when the server could not be asked (offline, or the page
 * leaving mid-request), which says nothing about the session.
 */
export type RefreshOutcome = Schemas['SignedIn'] | null | 'unreachable';

/** Called with every refresh that reached the server (a new session view, or null once the session is gone). */
export function onRefresh(listener: (signedIn: Schemas['SignedIn'] | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const tabs = browserAcrossTabs<Schemas['SignedIn']>('svc.refresh');

/** One exchange of the refresh cookie; null when the server refused it. Throws when offline. */
async function exchangeRefreshCookie(): Promise<Schemas['SignedIn'] | null> {
  const response = await fetch('/api/auth/refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', credentials: 'same-origin' });
  return response.ok ? ((await response.json()) as Schemas['SignedIn']) : null;
}

/**
 * Exchanges the refresh cookie for a new access token, once however many callers ask at the
 * same time, and one tab at a time (the server rotates the refresh token, so two parallel
 * refreshes would race).
 */
export function refreshAccess(): Promise<RefreshOutcome> {
  refreshing ??= (async () => {
    try {
      const signedIn = await tabs.run(exchangeRefreshCookie);
      if (!signedIn) {
        access = null;
        return null;
      }
      useAccess(signedIn);
      return signedIn;
    } catch {
      return 'unreachable' as const; // offline: keep the token we have; the request itself will report the failure
    } finally {
      refreshing = null;
    }
  })().then((outcome) => {
    if (outcome !== 'unreachable') for (const listener of listeners) listener(outcome);
    return outcome;
  });
  return refreshing;
}

const NO_AUTH_RETRY = /^\/api\/auth\/(refresh|logout|opaque|password|webauthn|email|2fa\/verify|guest)/;
const retries = new Map<string, Request>();

const authentication: Middleware = {
  async onRequest({ request, id }) {
    if (access && Date.now() >= access.renewAt && !NO_AUTH_RETRY.test(new URL(request.url).pathname)) await refreshAccess();
    if (access) request.headers.set('Authorization', `Bearer ${access.token}`);
    // Kept to send again after a refresh; a body can be read only once.
    retries.set(id, request.clone());
    return request;
  },
  async onResponse({ request, response, id }) {
    const retry = retries.get(id);
    retries.delete(id);
    if (response.status !== 401 || !retry || !access || NO_AUTH_RETRY.test(new URL(request.url).pathname)) return response;
    const renewed = await refreshAccess();
    if (!renewed || renewed === 'unreachable') return response;
    retry.headers.set('Authorization', `Bearer ${renewed.accessToken}`);
    return fetch(retry);
  },
  onError({ id }) {
    retries.delete(id);
  },
};
api.use(authentication);

/**
 * The data of a 2xx answer, or throws an ApiError with the documented error body (or a made-up
 * `unavailable` when the server could not be reached).
 */
export async function call<R extends { data?: unknown; error?: unknown; response: Response }>(request: Promise<R>): Promise<NonNullable<R['data']>> {
  let answer: R;
  try {
    answer = await request;
  } catch (error) {
    throw asApiError(error);
  }
  // 204 answers have no data; callers of those ignore the value.
  if (answer.response.ok) return answer.data as NonNullable<R['data']>;
  const body = answer.error as Partial<Schemas['Error']> | undefined;
  if (body && typeof body.code === 'string' && typeof body.message === 'string') throw new ApiError(body as Schemas['Error'], retryAfterOf(answer.response));
  throw new ApiError({
    requestId: answer.response.headers.get('x-request-id') ?? '',
    status: answer.response.status,
    code: answer.response.status >= 500 ? 'internal' : 'invalid_argument',
    message: t('errors.serverAnswered', { status: answer.response.status, statusText: answer.response.statusText }),
  });
}
