/**
 * What every media tool job that reads an item shares (embedded subtitles, the media probe):
 * the media as the tools see it (this service's own signed proxy URL on loopback, never the
 * upstream's, so the proxy's address policy and headers apply), its first bytes read the way
 * the tool will read it (to sniff the container before any tool runs), the proxy's refusals
 * passed on in its own words, and a tool's failure logged for operators with the signed URL (a
 * credential until it expires) taken out. Callers answer with sentences of their own.
 */
import { isErrorCode } from '../../contracts/errors.js';
import { AppError } from '../../errors/index.js';
import { SNIFF_BYTES } from './container-sniff.js';
import type { MediaTools } from './media-tools.js';
import type { ToolRun } from './run-tool.js';

/** The media as the tools read it: this service's proxy URL, and what is read (the pool's job key: media/read-key.ts). */
export interface ToolSource {
  url: string;
  identity: string;
}

/**
 * The first `SNIFF_BYTES` of the media, read through the proxy like the tools will (no
 * redirects: the proxy answers none), within `timeoutMs`. A refusal of the proxy (its own
 * sentence and code) is passed on.
 */
export async function firstBytes(url: string, timeoutMs: number): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { headers: { range: `bytes=0-${SNIFF_BYTES - 1}` }, redirect: 'error', signal });
  } catch (err) {
    throw new AppError(signal.aborted ? 'deadline_exceeded' : 'bad_gateway', 'the media could not be read through the media proxy', [], { cause: err });
  }
  if (!response.ok) throw await proxyRefusal(response);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < SNIFF_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch (err) {
    throw new AppError('bad_gateway', 'the media could not be read through the media proxy', [], { cause: err });
  } finally {
    // The proxy may send the whole file when its upstream ignores Range: the rest is not needed.
    void reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, SNIFF_BYTES);
}

/** The proxy's own error (code and sentence) when it answered with one, else a sentence of ours. */
export async function proxyRefusal(response: Response): Promise<AppError> {
  try {
    const body = (await response.json()) as { code?: unknown; message?: unknown };
    if (isErrorCode(body.code) && typeof body.message === 'string') return new AppError(body.code, body.message);
  } catch {
    // not one of our error bodies
  }
  return new AppError('bad_gateway', `the media proxy answered HTTP ${response.status} for the media`);
}

/** The tool's own words, for operators: the signed proxy URL taken out. `container` is the demuxer it was held to. */
export function logFailure(tools: MediaTools, tool: string, result: ToolRun, source: ToolSource, container: string): void {
  const stderr = result.stderr.split(source.url).join('<media>').trim();
  tools.logger.warn({ tool, code: result.code, container, stderr }, `${tool} could not read a proxied media file`);
}
