import { request } from 'node:http';
import { hostname, userInfo } from 'node:os';
import type { ManagementEndpoint } from '../../config/index.js';
import { AppError, type ErrorCode, type FieldIssue } from '../../errors/index.js';
import { ACTOR_HEADER, MANAGEMENT_HEADER } from '../../contracts/management.js';

const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * The CLI side of the management API. Every failure to reach or be accepted by the server
 * becomes an AppError whose message names the endpoint and the configuration that must agree
 * between server and CLI (management.endpoint / SVC_MANAGEMENT_ENDPOINT, management.token).
 */
export class ManagementClient {
  constructor(
    private readonly endpoint: ManagementEndpoint,
    private readonly timeoutMs = DEFAULT_TIMEOUT_MS,
  ) {}

  get address(): string {
    return this.endpoint.kind === 'unix' ? `unix://${this.endpoint.path}` : `tcp://${this.endpoint.host}:${this.endpoint.port}`;
  }

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>('PATCH', path, body);
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>('POST', path, body);
  }

  private call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = {
      accept: 'application/json',
      [ACTOR_HEADER]: cliActor(),
    };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    if (this.endpoint.kind === 'tcp') headers.authorization = `Bearer ${this.endpoint.token}`;
    const target =
      this.endpoint.kind === 'unix'
        ? { socketPath: this.endpoint.path }
        : { host: this.endpoint.host, port: this.endpoint.port };

    return new Promise<T>((resolve, reject) => {
      const req = request({ ...target, method, path, headers, timeout: this.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (err) => reject(this.unreachable(err)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.headers[MANAGEMENT_HEADER] !== '1') {
            reject(
              new AppError(
                'unavailable',
                `${this.address} answered, but it is not an svc management endpoint (HTTP ${res.statusCode}); check management.endpoint / SVC_MANAGEMENT_ENDPOINT: it must name the server's management endpoint, not its HTTP port`,
              ),
            );
            return;
          }
          let parsed: unknown;
          try {
            parsed = text.length > 0 ? JSON.parse(text) : undefined;
          } catch {
            reject(new AppError('internal', `${this.address} sent a malformed response (HTTP ${res.statusCode})`));
            return;
          }
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            resolve(parsed as T);
            return;
          }
          reject(this.serverError(status, parsed));
        });
      });
      req.on('timeout', () => req.destroy(new AppError('deadline_exceeded', `${this.address} did not answer within ${this.timeoutMs} ms`)));
      req.on('error', (err) => reject(err instanceof AppError ? err : this.unreachable(err)));
      if (payload) req.write(payload);
      req.end();
    });
  }

  private serverError(status: number, body: unknown): AppError {
    const error = body as { code?: ErrorCode; message?: string; issues?: FieldIssue[] } | undefined;
    if (status === 401) {
      return new AppError(
        'unauthenticated',
        `${this.address} rejected this CLI's credentials (${error?.message ?? 'unauthenticated'}); management.token (SVC_MANAGEMENT_TOKEN) must equal the server's`,
      );
    }
    return new AppError(error?.code ?? 'internal', error?.message ?? `HTTP ${status}`, error?.issues ?? []);
  }

  private unreachable(err: Error & { code?: string }): AppError {
    const where = this.address;
    const agree = 'management.endpoint (SVC_MANAGEMENT_ENDPOINT) must be the same for "svc serve" and this CLI';
    switch (err.code) {
      case 'ENOENT':
        return new AppError('unavailable', `no management socket at ${where}: is "svc serve" running? ${agree} (the default socket lives under data_dir)`);
      case 'ECONNREFUSED':
        return new AppError('unavailable', `nothing accepts connections at ${where}: is "svc serve" running? ${agree}`);
      case 'EACCES':
        return new AppError('forbidden', `permission denied on ${where}: the socket is mode 0600, run the CLI as the service's user`);
      default:
        return new AppError('unavailable', `cannot reach the management endpoint ${where}: ${err.message}`);
    }
  }
}

function cliActor(): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // Some container users have no passwd entry; the host name still identifies the caller.
  }
  return `cli:${user}@${hostname()}`;
}
