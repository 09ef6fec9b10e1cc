/**
 * The `url` of a `local` playlist item: a file each viewer has on their own disk
 * (docs/2026-11-26-local-files.md). It names the file, it does not locate it:
 * `local:<fingerprint>:<size>:<name>`, the fingerprint as 64 lowercase hex digits, the size in
 * bytes as a decimal integer without leading zeros, the name percent-encoded
 * (encodeURIComponent). The web client writes it and the `local` provider checks it; no byte of
 * the file ever reaches the server. Shared by both, so what one writes the other reads.
 */

/** What identifies a viewer's copy: the fingerprint (web/src/player/local-file.ts defines it), its size and the host's file name. */
export interface LocalFileRef {
  fingerprint: string;
  size: number;
  name: string;
}

/** A file name is at most this many characters (code points): what common file systems allow. */
export const LOCAL_NAME_MAX_CHARS = 255;
const FINGERPRINT = /^[0-9a-f]{64}$/;
const SIZE = /^[1-9][0-9]{0,15}$/;
// C0 and C1 controls, DEL, and line or paragraph separators: a name is shown on one line.
// eslint-disable-next-line no-control-regex -- naming control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function localFileUrl(ref: LocalFileRef): string {
  return `local:${ref.fingerprint}:${ref.size}:${encodeURIComponent(ref.name)}`;
}

/** The file an item's url names, or why it names none (a message that completes "url ..."). */
export function parseLocalFileUrl(url: string): { ref: LocalFileRef } | { problem: string } {
  const form = 'local:<fingerprint>:<size>:<name>';
  if (!url.startsWith('local:')) return { problem: `must be a local file reference (${form})` };
  const parts = url.slice('local:'.length).split(':');
  if (parts.length < 3) return { problem: `must be a local file reference (${form}), got ${parts.length} of its 3 parts` };
  const [fingerprint = '', size = '', ...rest] = parts;
  if (!FINGERPRINT.test(fingerprint)) return { problem: `must start with the file's fingerprint as 64 lowercase hex digits (SHA-256), got ${fingerprint.length} characters` };
  const bytes = Number(size);
  if (!SIZE.test(size) || !Number.isSafeInteger(bytes)) return { problem: `must give the file's size as a positive whole number of bytes (at most ${Number.MAX_SAFE_INTEGER}), got "${size.slice(0, 20)}"` };
  let name: string;
  try {
    // A name may hold ':' only percent-encoded; a raw one would make the parts ambiguous.
    if (rest.length !== 1) throw new URIError('extra parts');
    name = decodeURIComponent(rest[0] ?? '');
  } catch {
    return { problem: "must end with the file's name percent-encoded (encodeURIComponent)" };
  }
  if (name.trim().length === 0) return { problem: "must name the file (the name is empty)" };
  if ([...name].length > LOCAL_NAME_MAX_CHARS) return { problem: `must name the file in at most ${LOCAL_NAME_MAX_CHARS} characters` };
  if (CONTROL.test(name)) return { problem: 'must name the file without control characters' };
  return { ref: { fingerprint, size: bytes, name } };
}
