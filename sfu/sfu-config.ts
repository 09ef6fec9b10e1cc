/** The SFU as the startup config describes it (docs/2026-11-29-sfu.md), or none. */
import type { StartupConfig } from '../config/index.js';

export interface SfuConfig {
  /** LiveKit's HTTP API as this service reaches it (`sfu.url`). */
  url: string;
  /** The ws(s):// address browsers open (`sfu.public_url`, else `url` with the ws scheme). */
  publicUrl: string;
  apiKey: string;
  apiSecret: string;
  /** `nats.subject_prefix`: starts every SFU room name of this deployment. */
  prefix: string;
}

/** The SFU of this deployment, or undefined when `sfu.url` is empty (voice stays a mesh, no stage). */
export function sfuConfigOf(config: Pick<StartupConfig, 'sfu' | 'nats'>): SfuConfig | undefined {
  const { url, public_url: publicUrl, api_key: apiKey, api_secret: apiSecret } = config.sfu;
  if (url === '') return undefined;
  return { url, publicUrl: publicUrl !== '' ? publicUrl : wsUrlOf(url), apiKey, apiSecret, prefix: config.nats.subject_prefix };
}

/** `http(s)://host/` as `ws(s)://host/`: LiveKit serves its API and its signalling on one port. */
export function wsUrlOf(url: string): string {
  return url.replace(/^http/i, 'ws');
}
