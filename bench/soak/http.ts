/** JSON over HTTP to a gateway, as one person (bearer token, client address), bounded in time. */
export interface HttpAnswer {
  status: number;
  body: Record<string, unknown>;
}

export async function call(url: string, method: string, path: string, options: { token?: string; body?: unknown; address?: string; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<HttpAnswer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      'x-svc-client': 'native',
      'x-forwarded-for': options.address ?? '198.18.0.1',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { text };
  }
  return { status: response.status, body };
}

/** The same call, failing unless the status is the expected one (setup steps). */
export async function expect(status: number, what: string, ...args: Parameters<typeof call>): Promise<Record<string, unknown>> {
  const answer = await call(...args);
  if (answer.status !== status) throw new Error(`${what}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A distinct TEST-NET-2/3-ish address per person, so per-address limits see many clients. */
export function addressOf(index: number): string {
  return `198.18.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`;
}
