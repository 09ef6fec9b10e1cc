/**
 * The NOTIFY message a settings write sends to every replica. It names what changed, never
 * the values: NOTIFY payloads are capped at 8000 bytes and a replica must read the committed
 * row anyway, so receivers treat it only as "reload these keys".
 */
export const SETTINGS_CHANNEL = 'svc_settings';

export interface SettingsChangeNotice {
  keys: string[];
  /** `versions[i]` is the version `keys[i]` reached in the write. */
  versions: number[];
  /** The replica that made the write, when it was made by one. */
  replicaId: string | null;
}

export function encodeNotice(notice: SettingsChangeNotice): string {
  return JSON.stringify(notice);
}

/** The notice, or undefined when the payload is not one (a stray `NOTIFY` by hand). */
export function decodeNotice(payload: string | undefined): SettingsChangeNotice | undefined {
  if (!payload) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { keys, versions, replicaId } = parsed as Record<string, unknown>;
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) return undefined;
  if (!Array.isArray(versions) || versions.length !== keys.length || !versions.every(Number.isSafeInteger)) {
    return undefined;
  }
  return {
    keys,
    versions: versions as number[],
    replicaId: typeof replicaId === 'string' ? replicaId : null,
  };
}
