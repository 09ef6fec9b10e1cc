/**
 * Rewrites an HLS playlist so every resource it names comes through the proxy: segment and
 * variant-playlist lines, and the `URI="..."` attributes of tags (`EXT-X-KEY`, `EXT-X-MAP`,
 * `EXT-X-MEDIA`, `EXT-X-I-FRAME-STREAM-INF`, `EXT-X-PART`, `EXT-X-PRELOAD-HINT`, ...). Each is
 * made absolute against the playlist's own (final) URL and handed to `sign`, which returns
 * the signed proxy URL for it. URIs that are not http(s) (a DRM `skd://` key) are left alone:
 * the proxy could not fetch them anyway.
 */

const URI_ATTRIBUTE = /URI="([^"]*)"/g;

export function isPlaylistReply(contentType: string | undefined, url: string): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/vnd.apple.mpegurl' || type === 'application/x-mpegurl' || type === 'audio/mpegurl' || type === 'audio/x-mpegurl') return true;
  try {
    return /\.m3u8?$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

export function rewritePlaylist(text: string, playlistUrl: string, sign: (absoluteUrl: string) => string): string {
  const rewrite = (uri: string): string => {
    let absolute: URL;
    try {
      absolute = new URL(uri.trim(), playlistUrl);
    } catch {
      return uri;
    }
    if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return uri;
    return sign(absolute.href);
  };
  return text
    .split(/\r?\n/)
    .map((line) => {
      if (line.startsWith('#')) return line.startsWith('#EXT') ? line.replace(URI_ATTRIBUTE, (_all, uri: string) => `URI="${rewrite(uri)}"`) : line;
      return line.trim() === '' ? line : rewrite(line);
    })
    .join('\n');
}
