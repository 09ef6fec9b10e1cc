/**
 * What the livestream endpoints (stream keys, `/media/live/...`) need in a gateway process.
 * `ingest` is absent when this replica does not take RTMP (`rtmp.enabled` off): it still
 * serves the streams of other replicas through the registry, and pulls streams (`pulls`).
 */
import type { MediaGrants } from '../../media/index.js';
import type { StreamKeys, StreamTarget } from '../../media/index.js';
import type { LiveIngest } from './live-ingest.js';
import type { LivePulls } from './live-pulls.js';
import type { LiveRegistry } from './live-registry.js';

export interface LiveDeps {
  keys: StreamKeys;
  registry: LiveRegistry;
  ingest?: LiveIngest;
  /** Live streams pulled from URLs (provider `pull`), absent with `live_pull.max_streams` 0. */
  pulls?: LivePulls;
  grants: MediaGrants;
  replicaId: string;
  /** The RTMP port publishers reach (`rtmp.port`, or the port bound when it was 0). */
  rtmpPort: () => number;
  /** Tells every replica's ingest that `target`'s key changed: a publish with the old one ends. */
  keyChanged(target: StreamTarget): void;
}
