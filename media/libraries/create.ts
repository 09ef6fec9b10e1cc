/** Builds the media libraries of one process: the store, the connectors and the signer of item URLs. */
import type pg from 'pg';
import type { SecretBox } from '../../crypto/index.js';
import type { StartupConfig } from '../../config/index.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import { LibraryItemUrls, libraryItemKey } from './item-url.js';
import { MediaLibraries } from './libraries.js';
import { LibraryStore } from './library-store.js';
import { builtinConnectors } from './registry.js';

export function createMediaLibraries(config: Pick<StartupConfig, 'credential_encryption_key'>, pool: pg.Pool, box: SecretBox, http: UpstreamClient): MediaLibraries {
  return new MediaLibraries({
    store: new LibraryStore(pool, box),
    connectors: builtinConnectors(http),
    urls: new LibraryItemUrls(libraryItemKey(config.credential_encryption_key)),
  });
}
