/**
 * What a file is, from its name (and its content type when the server gives one): WebDAV and
 * Alist list names, not media kinds, and "Add folder" adds only what players can play.
 */
import type { LibraryEntryKind } from './connector.js';

const VIDEO = new Set(['mp4', 'm4v', 'mkv', 'webm', 'mov', 'avi', 'ts', 'm2ts', 'mpg', 'mpeg', 'ogv', 'wmv', 'flv', 'm3u8', 'mpd', '3gp']);
const AUDIO = new Set(['mp3', 'm4a', 'aac', 'flac', 'ogg', 'oga', 'opus', 'wav', 'weba']);

export function fileKind(name: string, contentType?: string): LibraryEntryKind {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  if (extension && VIDEO.has(extension)) return 'video';
  if (extension && AUDIO.has(extension)) return 'audio';
  if (contentType?.startsWith('video/')) return 'video';
  if (contentType?.startsWith('audio/')) return 'audio';
  return 'other';
}

/** Folders first, then files, each by name as people read them (2 before 10). */
export function byFolderThenName<T extends { kind: LibraryEntryKind; name: string }>(a: T, b: T): number {
  const folders = Number(b.kind === 'folder') - Number(a.kind === 'folder');
  return folders !== 0 ? folders : a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' });
}
