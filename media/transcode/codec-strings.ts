/**
 * RFC 6381 codec strings for the master playlist's CODECS: a player (MSE's isTypeSupported)
 * picks a variant by them before fetching anything. Converted video is ours (libx264 or a
 * hardware encoder at High profile and the level of media/transcode/encode-plan.ts), so its
 * string is known. Copied video is the source's: its string is built from the profile and level
 * ffprobe reports for the stream (`profile`, `level` of `-show_streams`), which are the avcC's
 * profile_idc and level_idc; the constraint byte is the one encoders write for that profile
 * (x264: 00 for High/Main, C0 for Constrained Baseline), which players ignore when deciding
 * whether they can decode. `avcCodecOfInit` reads the exact string from an init segment, for a
 * caller that has one (and for the test that holds the two to agree).
 */

/** ffprobe's H.264 profile names → profile_idc and the constraint flags byte. */
const AVC_PROFILES: Record<string, [number, number]> = {
  'Constrained Baseline': [0x42, 0xc0],
  Baseline: [0x42, 0x00],
  Main: [0x4d, 0x00],
  Extended: [0x58, 0x00],
  High: [0x64, 0x00],
  'High 10': [0x6e, 0x00],
  'High 4:2:2': [0x7a, 0x00],
  'High 4:4:4 Predictive': [0xf4, 0x00],
};

const hex = (byte: number) => byte.toString(16).padStart(2, '0');

/** `avc1.PPCCLL` for an H.264 stream of ffprobe's `profile` name and `level` (e.g. 31 for 3.1); undefined for a profile we do not know. */
export function avcCodecString(profile: string, level: number): string | undefined {
  const known = AVC_PROFILES[profile];
  if (!known || !Number.isInteger(level) || level <= 0 || level > 0xff) return undefined;
  return `avc1.${hex(known[0])}${hex(known[1])}${hex(level)}`;
}

/** `mp4a.40.x` for AAC of ffprobe's `profile` name: LC (ours, and the default), HE-AAC, HE-AACv2. */
export function aacCodecString(profile?: string): string {
  if (profile === 'HE-AAC') return 'mp4a.40.5';
  if (profile === 'HE-AACv2') return 'mp4a.40.29';
  return 'mp4a.40.2';
}

/** The `avc1.PPCCLL` of the first avcC box of an fMP4 init segment, or undefined without one. */
export function avcCodecOfInit(init: Uint8Array): string | undefined {
  const at = Buffer.from(init.buffer, init.byteOffset, init.byteLength).indexOf('avcC');
  // avcC payload: configurationVersion, then profile_idc, profile_compatibility, level_idc.
  if (at < 0 || at + 8 > init.length) return undefined;
  return `avc1.${hex(init[at + 5] ?? 0)}${hex(init[at + 6] ?? 0)}${hex(init[at + 7] ?? 0)}`;
}
