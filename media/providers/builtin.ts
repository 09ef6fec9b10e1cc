/**
 * The providers every server has: `direct` files, `hls` playlists, `dash` manifests, `local` files on
 * each viewer's own disk, the `alist` example, and `youtube` unless configured off. The service
 * registers these at start, then whatever else it runs (the livestream provider).
 */
import type { UpstreamClient } from '../proxy/upstream-client.js';
import { AlistProvider } from './alist.js';
import { dashProvider } from './dash.js';
import { directProvider } from './direct.js';
import { hlsProvider } from './hls.js';
import { localProvider } from './local.js';
import { ProviderRegistry } from './registry.js';
import { YouTubeProvider, type EmbedSource } from './youtube.js';

/** `youtube`: where browsers load its player from; null leaves the provider out. */
export function builtinProviders(http: UpstreamClient, youtube: EmbedSource | null = null): ProviderRegistry {
  const registry = new ProviderRegistry().register(directProvider).register(hlsProvider).register(dashProvider).register(localProvider).register(new AlistProvider(http));
  return youtube ? registry.register(new YouTubeProvider(youtube)) : registry;
}
