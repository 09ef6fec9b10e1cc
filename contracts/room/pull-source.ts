/**
 * The URL of a live stream this server pulls from elsewhere (provider `pull`,
 * docs/2026-11-29-pulled-live-streams.md): which schemes, and which parts of the URL, a member
 * may give. The room checks the form with `pullUrlProblem` when the item is added; the gateway
 * checks the host's addresses against the media proxy's address policy when it pulls. A leaf
 * module: the web client and the API schema read the same rules.
 */

/**
 * rtmp(s), rtsp and srt pulled by ffmpeg; http(s) is an HLS playlist, read by the server's own
 * checked reader. Not rtsps: RTSP is read through a guard that refuses redirects to unchecked
 * hosts (media/live/rtsp-guard.ts), which cannot read a TLS connection.
 */
export const PULL_SCHEMES = ['rtmp', 'rtmps', 'rtsp', 'srt', 'http', 'https'] as const;
export type PullScheme = (typeof PULL_SCHEMES)[number];

/**
 * The SRT options a caller may set in the query. Anything else (mode=listener would make the
 * server listen on a port of the member's choosing; localip, localport bind it) is refused;
 * the server always connects as caller.
 */
export const SRT_OPTIONS = ['streamid', 'passphrase', 'pbkeylen', 'latency'] as const;

/** A control character or white space (C0, space, DEL, C1, no-break space, line and paragraph separators). */
function hasControlOrSpace(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code <= 0x20 || (code >= 0x7f && code <= 0xa0) || code === 0x2028 || code === 0x2029) return true;
  }
  return false;
}

/** What is wrong with `text` as a pulled stream's URL, in a sentence; undefined when its form is right. */
export function pullUrlProblem(text: string, maxChars: number): string | undefined {
  if (text.length === 0) return 'must not be empty';
  if (text.length > maxChars) return `must be at most ${maxChars} characters`;
  if (hasControlOrSpace(text)) return 'must not contain white space or control characters';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `must be an absolute URL with one of the schemes ${PULL_SCHEMES.join(', ')}`;
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (!(PULL_SCHEMES as readonly string[]).includes(scheme)) {
    return `must use one of the schemes ${PULL_SCHEMES.join(', ')} (http and https for an HLS playlist), not "${scheme.slice(0, 20)}"`;
  }
  if (url.hostname === '') return 'must name a host';
  if (url.hash !== '') return 'must not have a fragment (#...)';
  if (scheme === 'srt') {
    if (url.pathname !== '' && url.pathname !== '/') return 'must have no path for srt (give the stream as ?streamid=...)';
    for (const name of new URLSearchParams(url.search).keys()) {
      if (!(SRT_OPTIONS as readonly string[]).includes(name)) return `must not set the srt option "${name.slice(0, 32)}": only ${SRT_OPTIONS.join(', ')} may be given`;
    }
  } else if (url.search !== '' && scheme !== 'http' && scheme !== 'https') {
    return `must not have a query for ${scheme}`;
  }
  if ((scheme === 'rtmp' || scheme === 'rtmps') && url.pathname.split('/').filter((part) => part !== '').length < 2) {
    return 'must name the application and the stream for rtmp (rtmp://host/app/stream)';
  }
  if ((scheme === 'rtmp' || scheme === 'rtmps' || scheme === 'srt') && (url.username !== '' || url.password !== '')) {
    return `must not carry a user name or password for ${scheme}`;
  }
  return undefined;
}

/** `url` with any user name and password replaced by "***": what logs and errors may show. */
export function redactPullUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.username === '' && url.password === '') {
      if (url.protocol === 'srt:' && url.searchParams.has('passphrase')) url.searchParams.set('passphrase', '***');
      return url.href.slice(0, 300);
    }
    url.username = '***';
    url.password = '';
    return url.href.slice(0, 300);
  } catch {
    return '(not a URL)';
  }
}
