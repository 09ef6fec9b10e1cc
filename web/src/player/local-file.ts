/**
 * Files on each viewer's own disk (the `local` provider, docs/2026-11-26-local-files.md): the
 * fingerprint that says two copies are the same file, the copies this page was given (kept for
 * its life: a browser cannot reopen a file without a gesture), and the request the player
 * makes when the current item is such a file and no copy is known yet.
 *
 * Fingerprint: SHA-256 of the file's first MiB, then its last MiB, then its size in bytes as an
 * 8-byte big-endian unsigned integer; a file of at most 2 MiB contributes all its bytes once,
 * then the size. Read with File.slice, so a film of many GiB costs two MiB of reading.
 */
import { signal } from '@preact/signals';
import type { LocalFileRef } from '../../../contracts/room/local-file.js';
import { t } from '../i18n/i18n.js';

export type { LocalFileRef } from '../../../contracts/room/local-file.js';

const MIB = 1024 * 1024;

export async function fingerprintOf(file: Blob): Promise<string> {
  // crypto.subtle exists only in secure contexts (HTTPS, or localhost), as passkeys need too.
  if (!globalThis.crypto?.subtle) throw new Error(t('player.localFile.noHttps'));
  const parts: Blob[] = file.size <= 2 * MIB ? [file] : [file.slice(0, MIB), file.slice(file.size - MIB)];
  const size = new ArrayBuffer(8);
  new DataView(size).setBigUint64(0, BigInt(file.size));
  const bytes = await new Blob([...parts, size]).arrayBuffer();
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** "1.4 GB", "700 kB": sizes as people read them (decimal units, as file managers show). */
export function formatSize(bytes: number): string {
  const units = ['', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? t('player.localFile.bytes', { size: bytes }) : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** The copies this page was given, by fingerprint: the host's own, and every viewer's match. */
const copies = new Map<string, File>();

export function rememberCopy(fingerprint: string, file: File): void {
  copies.set(fingerprint, file);
}

export function rememberedCopy(fingerprint: string): File | undefined {
  return copies.get(fingerprint);
}

/** Whether `file` is a copy of `wanted`: null when it is, else what differs, in words. */
export async function mismatchOf(file: File, wanted: LocalFileRef): Promise<string | null> {
  // The size is known without reading: say so at once, and precisely.
  if (file.size !== wanted.size) return t('player.localFile.sizeDiffers', { file: file.name, yours: file.size, name: wanted.name, size: wanted.size });
  const fingerprint = await fingerprintOf(file);
  if (fingerprint !== wanted.fingerprint) return t('player.localFile.contentDiffers', { file: file.name, name: wanted.name });
  return null;
}

/**
 * The player's request for the viewer's copy of the current item. `wanted` is what the picker
 * shows; `offer` checks a chosen file and, when it matches, hands it to the waiting loader.
 */
export class LocalFileRequest {
  readonly wanted = signal<LocalFileRef | null>(null);
  private resolve: ((file: File) => void) | null = null;

  /** Resolves with a matching copy: at once when this page has one, else once the viewer picks one. */
  request(ref: LocalFileRef, signal: AbortSignal): Promise<File> {
    const known = rememberedCopy(ref.fingerprint);
    if (known) return Promise.resolve(known);
    return new Promise<File>((resolve, reject) => {
      this.wanted.value = ref;
      this.resolve = resolve;
      signal.addEventListener('abort', () => {
        if (this.resolve === resolve) this.clear();
        reject(signal.reason as Error);
      });
    });
  }

  /** Checks `file` against what is wanted: null when it matched (and is now playing), else the mismatch in words. */
  async offer(file: File): Promise<string | null> {
    const wanted = this.wanted.peek();
    if (!wanted) return null;
    const mismatch = await mismatchOf(file, wanted);
    // The item may have changed while the file was read.
    if (mismatch !== null || this.wanted.peek() !== wanted) return mismatch;
    rememberCopy(wanted.fingerprint, file);
    const resolve = this.resolve;
    this.clear();
    resolve?.(file);
    return null;
  }

  private clear(): void {
    this.wanted.value = null;
    this.resolve = null;
  }
}
