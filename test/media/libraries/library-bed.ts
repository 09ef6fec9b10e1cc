/**
 * What the media library tests share: a folder tree of small "media" files (random bytes under
 * media names: the proxy and the libraries do not look inside) and calls of the library API.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GatewayBed, Member } from '../../gateways/bed.js';

/** path under the root -> size in bytes */
export const TREE: Record<string, number> = {
  'Movies/film.mp4': 300_000,
  'Shows/intro.mp4': 1000,
  'Shows/S1/ep01.mp4': 2000,
  'Shows/S1/ep02.mp4': 2001,
  'Shows/S1/ep10.mp4': 2002,
  'Shows/S1/notes.txt': 12,
  'Shows/extras/trailer.webm': 1500,
  'Music/song.mp3': 900,
  'readme.txt': 10,
};

export async function mediaTree(): Promise<{ root: string; bytes: Map<string, Buffer> }> {
  const root = await mkdtemp(join(tmpdir(), 'svc-library-'));
  const bytes = new Map<string, Buffer>();
  for (const [path, size] of Object.entries(TREE)) {
    const data = randomBytes(size);
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), data);
    bytes.set(path, data);
  }
  return { root, bytes };
}

export interface LibraryView {
  id: string;
  kind: string;
  name: string;
  url: string;
  username: string;
  owner: { kind: 'user'; userId: string } | { kind: 'room'; roomId: string };
}
export interface Entry {
  id: string;
  name: string;
  kind: 'folder' | 'video' | 'audio' | 'other';
  size?: number;
}
export interface Listing {
  folder: { id: string; name: string };
  entries: Entry[];
  truncated: boolean;
}
export interface AddAnswer {
  added: Array<{ item: { id: string; title: string; url: string; provider: string }; index: number }>;
  capped: boolean;
  rejected?: { code: string; message: string };
}

export function connectRoomLibrary(bed: GatewayBed, roomId: string, member: Member, fields: Record<string, unknown>) {
  return bed.call<{ library: LibraryView; issues?: Array<{ key: string; message: string }>; code?: string }>('POST', `/api/rooms/${roomId}/libraries`, fields, member.token);
}

export function listFolder(bed: GatewayBed, roomId: string, libraryId: string, member: Member, folder?: string) {
  const query = folder === undefined ? '' : `?folder=${encodeURIComponent(folder)}`;
  return bed.call<Listing & { code?: string; message?: string }>('GET', `/api/rooms/${roomId}/libraries/${libraryId}/entries${query}`, undefined, member.token);
}

export function searchLibrary(bed: GatewayBed, roomId: string, libraryId: string, member: Member, q: string) {
  return bed.call<{ entries: Entry[]; truncated: boolean; code?: string; message?: string }>('GET', `/api/rooms/${roomId}/libraries/${libraryId}/search?q=${encodeURIComponent(q)}`, undefined, member.token);
}

export function addFromLibrary(bed: GatewayBed, roomId: string, libraryId: string, member: Member, body: { entryId: string; folder: boolean; title?: string }) {
  return bed.call<AddAnswer & { code?: string; message?: string }>('POST', `/api/rooms/${roomId}/libraries/${libraryId}/add`, body, member.token);
}
