/**
 * Why the media element could not play an item, in plain words with the next step. The element
 * itself only says "an error": it cannot read a failed response's body. So when it reports
 * one, the same URL is asked for one byte (`Range: bytes=0-0`): this service's media proxy
 * answers with its documented error (`{code, message}`: an address it refuses and the setting
 * that would allow it, an upstream down or slow), an upstream answers with its status (404,
 * 403), and a source that answers fine is a format this browser cannot play.
 */

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
  if (error?.code === 'forbidden') return `The server refused to fetch this address: ${error.message}. Ask an admin or use another link.`;
  if (error?.code === 'bad_gateway') return `The media host did not answer properly (${error.message}). Try again later or use another link.`;
  if (error?.code === 'deadline_exceeded') return `The media host did not answer in time (${error.message}). Try again later or use another link.`;
  if (error?.code === 'unauthenticated' || (error && status === 401)) return `The link to this media has expired (${error.message}). Reload the page.`;
  if (error) return `The server could not play this media: ${error.message}.`;
  if (status === 404 || status === 410) return `The media was not found at its address (HTTP ${status}). Check the link, or use another one.`;
  if (status === 401 || status === 403) return `The media host refused access (HTTP ${status}): the link may have expired or need headers. Ask whoever added it for a working link.`;
  if (status === 502 || status === 503 || status === 504) return `The media host is down or did not answer (HTTP ${status}). Try again later or use another link.`;
  return `The media host answered HTTP ${status}. Check the link, or use another one.`;
}

/** The element's own reason, when the source itself answered fine. */
function explainElementError(video: HTMLMediaElement): string {
  const code = video.error?.code;
  if (code === MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED || code === MediaError.MEDIA_ERR_DECODE) {
    return 'This browser cannot play this media\u2019s format. Use another link, for example an MP4 (H.264 and AAC) or WebM file.';
  }
  if (code === MediaError.MEDIA_ERR_NETWORK) return 'The connection to the media broke off. Check your connection; it plays again once the room moves on or the page reloads.';
  return 'The media could not be played. Use another link, or reload the page.';
}

export async function explainMediaError(video: HTMLMediaElement): Promise<string> {
  const url = video.currentSrc;
  // hls.js and mpegts.js feed the element from a blob: their own errors are reported by sources.ts.
  if (!url || url.startsWith('blob:')) return explainElementError(video);
  let response: Response;
  try {
    response = await fetch(url, { headers: { range: 'bytes=0-0' }, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    return 'The media could not be reached (a network error, or its host does not let this page check it). Check the link and your connection, or play it through this server.';
  }
  if (response.ok) {
    void response.body?.cancel();
    return explainElementError(video);
  }
  const body: unknown = await response.json().catch(() => null);
  return explainFailedAnswer(response.status, serverError(body));
}
