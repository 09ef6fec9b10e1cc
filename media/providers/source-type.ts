/** A source's type guessed from its URL's file name, for providers that are not told it. */
import type { SourceType } from '../provider.js';

export function sourceTypeOfUrl(url: string): SourceType {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return 'file';
  }
  if (/\.m3u8$/i.test(path)) return 'hls';
  if (/\.flv$/i.test(path)) return 'flv';
  if (/\.mpd$/i.test(path)) return 'dash';
  return 'file';
}
