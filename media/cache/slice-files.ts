/**
 * The slice cache's directory: one file per slice and one metadata file per resource, side by
 * side, plus `.tmp-*` files being written. Names carry no identity (it may hold tokens): a
 * resource is the SHA-256 of its identity, a version (`gen`) a hash of its size and validators,
 * and a slice file ends in a random nonce so a refetched slice never shares a name with the
 * file an eviction is still deleting.
 *
 *   <key>.meta.json                     ResourceMeta as JSON
 *   <key>-<index>-<gen>-<nonce>.slice   the bytes [index * sliceBytes, +sliceBytes) of that version
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { SliceEntry } from './slice-index.js';

export interface ResourceMeta {
  key: string;
  size: number;
  etag?: string;
  lastModified?: string;
  contentType?: string;
  gen: string;
  /** When the upstream last confirmed this version (ms since the epoch); 0 after a restart. */
  validatedAt: number;
}

interface MetaFile {
  v: 1;
  sliceBytes: number;
  size: number;
  etag?: string;
  lastModified?: string;
  contentType?: string;
  gen: string;
}

export const resourceKey = (identity: string): string => createHash('sha256').update(identity).digest('hex').slice(0, 32);

export function versionOf(size: number, etag: string | undefined, lastModified: string | undefined): string {
  return createHash('sha256').update(`${size}\n${etag ?? ''}\n${lastModified ?? ''}`).digest('hex').slice(0, 12);
}

export const tempPath = (dir: string): string => join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
export const slicePath = (dir: string, key: string, index: number, gen: string): string =>
  join(dir, `${key}-${index}-${gen}-${randomBytes(4).toString('hex')}.slice`);
const metaPath = (dir: string, key: string): string => join(dir, `${key}.meta.json`);

/** Bytes slice `index` holds in a resource of `size` bytes (the last one may be shorter). */
export const sliceLength = (size: number, index: number, sliceBytes: number): number =>
  Math.max(0, Math.min(sliceBytes, size - index * sliceBytes));

/**
 * Fills `into` with the bytes of an open slice file from `start` on. One read call in the
 * common case (a read from the page cache returns everything asked for): each call is a trip
 * through libuv's thread pool.
 */
export async function readSliceInto(handle: FileHandle, into: Buffer, start: number): Promise<void> {
  for (let got = 0; got < into.length; ) {
    const { bytesRead } = await handle.read(into, got, into.length - got, start + got);
    if (bytesRead === 0) throw new Error(`slice file ended after ${got} of ${into.length} bytes`);
    got += bytesRead;
  }
}

/**
 * Writes a whole slice to a new file. Not `writeFile`, which writes in 512 KiB pieces: one
 * thread-pool trip per piece, four per slice instead of one.
 */
export async function writeSliceFile(path: string, bytes: Buffer): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    for (let written = 0; written < bytes.length; ) {
      const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written);
      written += bytesWritten;
    }
  } finally {
    await handle.close();
  }
}

export async function writeMeta(dir: string, meta: ResourceMeta, sliceBytes: number): Promise<void> {
  const file: MetaFile = {
    v: 1,
    sliceBytes,
    size: meta.size,
    gen: meta.gen,
    ...(meta.etag === undefined ? {} : { etag: meta.etag }),
    ...(meta.lastModified === undefined ? {} : { lastModified: meta.lastModified }),
    ...(meta.contentType === undefined ? {} : { contentType: meta.contentType }),
  };
  const temp = tempPath(dir);
  await writeFile(temp, JSON.stringify(file));
  await rename(temp, metaPath(dir, meta.key));
}

export async function removeMeta(dir: string, key: string): Promise<void> {
  await unlink(metaPath(dir, key)).catch(ignoreMissing);
}

export function ignoreMissing(err: unknown): void {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
}

export interface ScannedCache {
  metas: ResourceMeta[];
  /** Oldest write first: the LRU order a restart can recover. */
  slices: SliceEntry[];
}

const SLICE_NAME = /^([0-9a-f]{32})-(\d+)-([0-9a-f]{12})-[0-9a-f]{8}\.slice$/;
const META_NAME = /^([0-9a-f]{32})\.meta\.json$/;

/**
 * Rebuilds the index from the directory at open. Keeps a slice only when its resource's
 * metadata is readable, of the same version and slice size, and the file has exactly the
 * length its position implies; everything else (temporary files of a crash included) is
 * deleted, so nothing half-written survives a restart.
 */
export async function scanCacheDir(dir: string, sliceBytes: number): Promise<ScannedCache> {
  await mkdir(dir, { recursive: true });
  const names = await readdir(dir);
  const metas = new Map<string, ResourceMeta>();
  for (const name of names) {
    const match = META_NAME.exec(name);
    if (!match) continue;
    const meta = await readMeta(join(dir, name), match[1]!, sliceBytes);
    if (meta) metas.set(meta.key, meta);
    else await unlink(join(dir, name)).catch(ignoreMissing);
  }
  const slices: Array<SliceEntry & { mtimeMs: number }> = [];
  const used = new Set<string>();
  for (const name of names) {
    if (META_NAME.test(name)) continue;
    const path = join(dir, name);
    const match = SLICE_NAME.exec(name);
    const meta = match ? metas.get(match[1]!) : undefined;
    const index = match ? Number(match[2]) : -1;
    const info = meta ? await stat(path).catch(() => undefined) : undefined;
    const expected = meta ? sliceLength(meta.size, index, sliceBytes) : 0;
    if (!meta || !info || meta.gen !== match![3] || expected === 0 || info.size !== expected) {
      await unlink(path).catch(ignoreMissing);
      continue;
    }
    slices.push({ key: meta.key, index, gen: meta.gen, path, bytes: expected, mtimeMs: info.mtimeMs });
    used.add(meta.key);
  }
  for (const key of metas.keys()) {
    if (used.has(key)) continue;
    metas.delete(key);
    await removeMeta(dir, key);
  }
  slices.sort((a, b) => a.mtimeMs - b.mtimeMs);
  return { metas: [...metas.values()], slices: slices.map(({ mtimeMs: _, ...entry }) => entry) };
}

async function readMeta(path: string, key: string, sliceBytes: number): Promise<ResourceMeta | undefined> {
  try {
    const file = JSON.parse(await readFile(path, 'utf8')) as Partial<MetaFile>;
    if (file.v !== 1 || file.sliceBytes !== sliceBytes || typeof file.size !== 'number' || typeof file.gen !== 'string') return undefined;
    return {
      key,
      size: file.size,
      gen: file.gen,
      validatedAt: 0,
      ...(typeof file.etag === 'string' ? { etag: file.etag } : {}),
      ...(typeof file.lastModified === 'string' ? { lastModified: file.lastModified } : {}),
      ...(typeof file.contentType === 'string' ? { contentType: file.contentType } : {}),
    };
  } catch {
    return undefined;
  }
}
