/**
 * `svc watch`'s HTTP client of the one server in the room link: JSON over fetch as a native
 * client (`X-Svc-Client: native`: tokens in bodies, no cookies), the bearer on every call, and
 * one refresh of the session when the access token has expired (the room may play for hours).
 * Failures are the web client's `ApiError` (the documented `{requestId, status, code,
 * message}`), which the shared realtime connection (web/src/realtime/connection.ts) reads.
 */
import { ApiError } from '../../web/index.js';
import type { ErrorCode } from '../../contracts/errors.js';

export interface Session {
  accessToken: string;
  refreshToken?: string;
}

export class RoomApi {
  session: Session | null = null;

  constructor(readonly origin: string) {}

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.call<T>('POST', path, body ?? {});
  }

  async call<T>(method: string, path: string, body?: unknown, retried = false): Promise<T> {
    const url = new URL(path, this.origin);
    // Only this server: a path is resolved against the link's origin, never an absolute URL of another.
    if (url.origin !== this.origin) throw new Error(`refusing to call ${url.origin}: svc watch talks only to ${this.origin}`);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          'x-svc-client': 'native',
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(this.session ? { authorization: `Bearer ${this.session.accessToken}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (err) {
      const why = err instanceof Error && err.cause instanceof Error ? err.cause.message : err instanceof Error ? err.message : String(err);
      throw new ApiError({ requestId: '', status: 0, code: 'unavailable', message: `cannot reach ${this.origin} (${why})` });
    }
    const text = await response.text();
    if (response.ok) return (text ? JSON.parse(text) : {}) as T;
    if (response.status === 401 && !retried && this.session?.refreshToken && path !== '/api/auth/refresh' && (await this.refresh())) {
      return this.call<T>(method, path, body, true);
    }
    throw errorOf(response, text);
  }

  /** A new access token from the refresh token; false when the session is over. */
  private async refresh(): Promise<boolean> {
    const refreshToken = this.session?.refreshToken;
    if (!refreshToken) return false;
    try {
      const answer = await this.call<{ accessToken: string; refreshToken?: string }>('POST', '/api/auth/refresh', { refreshToken }, true);
      this.session = { accessToken: answer.accessToken, refreshToken: answer.refreshToken ?? refreshToken };
      return true;
    } catch {
      return false;
    }
  }
}

function errorOf(response: Response, text: string): ApiError {
  let body: { requestId?: string; code?: string; message?: string; issues?: Array<{ key: string; message: string }> } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not the documented body (a proxy's page): the status says what there is to say
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(
    {
      requestId: body.requestId ?? '',
      status: response.status,
      code: (body.code ?? 'unavailable') as ErrorCode,
      message: body.message ?? `${response.status} ${response.statusText}`,
      ...(body.issues ? { issues: body.issues } : {}),
    },
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}
