/**
 * The ICE servers a voice participant gets (`voice.join`, `webrtc.join`): the runtime
 * `webrtc.externalIceServers`, the built-in STUN listener when it runs, and TURN with fresh
 * credentials when an operator configured a TURN server. Built on the actor host from the
 * startup config, so the TURN secret stays in the process that read it: only derived,
 * expiring credentials travel, and only in the reply to the one member who asked (never in
 * a room event).
 */
import type { StartupConfig } from '../config/index.js';
import type { IceServer } from '../settings/index.js';
import { turnCredential } from './turn-credentials.js';

/** Computes the list for one user; `external` is the runtime setting as of this call. */
export type IceServerSource = (userId: string, external: readonly IceServer[]) => IceServer[];

export function iceServerSource(config: Pick<StartupConfig, 'stun' | 'turn' | 'server' | 'webauthn'>, now: () => number = Date.now): IceServerSource {
  const stun = builtInStun(config);
  const { urls, shared_secret: secret, credential_ttl_seconds: ttl } = config.turn;
  return (userId, external) => {
    const servers = structuredClone([...external]);
    if (stun) servers.push({ urls: [stun] });
    if (secret !== '' && urls.length > 0) {
      const { username, credential } = turnCredential(secret, userId, ttl, now());
      servers.push({ urls: [...urls], username, credential });
    }
    return servers;
  };
}

/** `stun:<host>:<port>` of the built-in listener, or undefined when it is off or has no public host. */
export function builtInStun(config: Pick<StartupConfig, 'stun' | 'server' | 'webauthn'>): string | undefined {
  if (!config.stun.enabled) return undefined;
  const host = config.stun.public_host || hostOf(config.server.public_url || config.webauthn.rp_origin);
  if (!host) return undefined;
  // An IPv6 literal needs brackets in a URI (RFC 7064).
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `stun:${shown}:${config.stun.port}`;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}
