/**
 * The media proxy as the media tools meet it, for tests that run them without a whole service
 * (Postgres, NATS, accounts): the transcoder's own loopback source server
 * (media/transcode/source-server.ts) over the real `MediaProxy`, its upstream client and its
 * address policy (loopback allowed, as test/media/media-bed.ts allows it). The URL a tool reads,
 * the Range handling and the proxy's error bodies are those of the service.
 */
import { randomBytes } from 'node:crypto';
import type { MediaItem } from '../../../contracts/room/model.js';
import { MediaGrants } from '../../../media/media-grant.js';
import { directProvider } from '../../../media/providers/direct.js';
import { AddressPolicy } from '../../../media/proxy/address-policy.js';
import { MediaProxy } from '../../../media/proxy/media-proxy.js';
import { fileNameOf } from '../../../media/proxy/proxy-url.js';
import { Resolutions } from '../../../media/proxy/resolutions.js';
import { UpstreamClient } from '../../../media/proxy/upstream-client.js';
import { SourceServer } from '../../../media/transcode/source-server.js';

export interface ProxyFront {
  /** The loopback URL a tool reads the direct item at `upstreamUrl` from. */
  urlFor(upstreamUrl: string): string;
  stop(): Promise<void>;
}

export async function startProxyFront(): Promise<ProxyFront> {
  const client = new UpstreamClient({ policy: new AddressPolicy(['127.0.0.0/8']), headersTimeoutMs: 10_000, idleTimeoutMs: 10_000, maxRedirects: 5 });
  const sources = await SourceServer.start(new MediaProxy({ client, resolutions: new Resolutions(), grants: new MediaGrants(randomBytes(32)), playlistLimitBytes: 1 << 20 }));
  return {
    urlFor(upstreamUrl) {
      const id = randomBytes(8).toString('hex');
      const item: MediaItem = { id, title: 't', url: upstreamUrl, provider: 'direct', headers: {}, subtitles: [], live: false, proxy: true, seekable: 'unknown', reach: null, addedBy: 'u', addedAt: 0, folderId: null };
      return sources.open('r', item, directProvider, fileNameOf(upstreamUrl)).url;
    },
    async stop() {
      await sources.close();
      client.close();
    },
  };
}
