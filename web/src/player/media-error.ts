/**
 * Why the media element could not play an item, in plain words with the next step. The element
 * itself only says "an error": it cannot read a failed response's body. So when it reports
 * one, the same URL is asked for one byte (`Range: bytes=0-0`): this service's media proxy
 * answers with its documented error (`{code, message}`: an address it refuses and the setting
 * that would allow it, an upstream down or slow), an upstream answers with its status (404,
 * 403), and a source that answers fine is a format this browser cannot play.
 */
import { t } from '../i18n/i18n.js';

interface ServerError {
  code: string;
  message: string;
}

function serverError(body: unknown): ServerError | null {
  if (typeof body !== 'object' || body === null) return null;
  const { code, message, requestId } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' && typeof requestId === 'string' ? { code, message } : null;
}

/** The sentence for an answer of the proxy or the upstream that is not a success. */
export function explainFailedAnswer(status: number, error: ServerError | null): string {
  // The server's message stays in its own words inside the sentence.
  if (error?.code === 'forbidden') return t('player.mediaError.refused', { message: error.message });
  if (error?.code === 'bad_gateway') return t('player.mediaError.badGateway', { message: error.message });
  if (error?.code === 'deadline_exceeded') return t('player.mediaError.timeout', { message: error.message });
  if (error?.code === 'unauthenticated' || (error && status === 401)) return t('player.mediaError.expired', { message: error.message });
  if (error) return t('player.mediaError.server', { message: error.message });
  if (status === 404 || status === 410) return t('player.mediaError.notFound', { status });
  if (status === 401 || status === 403) return t('player.mediaError.denied', { status });
  if (status === 502 || status === 503 || status === 504) return t('player.mediaError.down', { status });
  return t('player.mediaError.other', { status });
}

/** The element's own reason, when the source itself answered fine. */
function explainElementError(video: HTMLMediaElement): string {
  const code = video.error?.code;
  if (code === MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED || code === MediaError.MEDIA_ERR_DECODE) {
    return t('player.mediaError.format');
  }
  if (code === MediaError.MEDIA_ERR_NETWORK) return t('player.mediaError.network');
  return t('player.mediaError.failed');
}

export async function explainMediaError(video: HTMLMediaElement): Promise<string> {
  const url = video.currentSrc;
  // hls.js and mpegts.js feed the element from a blob: their own errors are reported by sources.ts.
  if (!url || url.startsWith('blob:')) return explainElementError(video);
  let response: Response;
  try {
    response = await fetch(url, { headers: { range: 'bytes=0-0' }, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    return t('player.mediaError.unreachable');
  }
  if (response.ok) {
    void response.body?.cancel();
    return explainElementError(video);
  }
  const body: unknown = await response.json().catch(() => null);
  return explainFailedAnswer(response.status, serverError(body));
}
