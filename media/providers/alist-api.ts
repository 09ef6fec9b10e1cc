/**
 * Calls to an Alist / OpenList server's public HTTP API (https://alist.nn.ci/guide/api/), shared
 * by the `alist` provider (one file by URL) and the Alist library connector (browsing). Every
 * answer is `{code, message, data}` with HTTP 200 whatever happened; `code` is the real status
 * (200, or 401 for a bad token, 403 for a wrong folder password, 500 for the rest).
 */
import { AppError } from '../../errors/index.js';
import { readLimited } from '../proxy/read-body.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';

/** Alist's answers are small JSON objects; a big listing page is well under this. */
const ANSWER_LIMIT_BYTES = 2 * 1024 * 1024;

export interface AlistAnswer<T> {
  code: number;
  message: string;
  data: T | null;
}

/** `POST <base><endpoint>` with a JSON body; the answer as Alist gave it (its `code` is the caller's to judge). */
export async function alistPost<T>(
  http: Pick<UpstreamClient, 'request'>,
  base: string,
  endpoint: string,
  body: unknown,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<AlistAnswer<T>> {
  const reply = await http.request({
    url: `${base}${endpoint}`,
    method: 'POST',
    headers,
    readHeaders: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
    signal,
  });
  const text = (await readLimited(reply, ANSWER_LIMIT_BYTES, 'Alist answer')).toString('utf8');
  try {
    const answer = JSON.parse(text) as AlistAnswer<T>;
    if (typeof answer.code !== 'number') throw new Error('no code');
    return answer;
  } catch {
    throw new AppError('bad_gateway', `the server at ${base} answered ${endpoint} with HTTP ${reply.status} and no Alist answer`);
  }
}

/** The file's signed link, from `POST /api/fs/get`; `bad_gateway` naming the path when Alist refuses. */
export async function alistRawUrl(
  http: Pick<UpstreamClient, 'request'>,
  base: string,
  path: string,
  password: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<{ url: string; name: string }> {
  const answer = await alistPost<{ raw_url?: string; name?: string }>(http, base, '/api/fs/get', { path, password }, headers, signal);
  if (answer.code !== 200 || !answer.data?.raw_url) {
    throw new AppError('bad_gateway', `the Alist server at ${base} refused ${path}: ${answer.code} ${answer.message}`);
  }
  return { url: new URL(answer.data.raw_url, base).href, name: answer.data.name ?? path.split('/').pop() ?? path };
}
