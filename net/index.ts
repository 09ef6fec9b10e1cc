/**
 * The public surface of net/: what code outside net/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { ClientAddresses } from './client-address.js';
export { inNetworks, parseNetwork, type IpNetwork } from './ip-network.js';
export { parseListenAddress } from './listen-address.js';
export { parsePostgresUrl, type PostgresHost, type PostgresUrl, type TargetSessionAttrs } from './postgres-url.js';
export { checkBareOrigin, isLoopbackHost } from './origin.js';
export { isSameOrigin, reachedAs, type ReachedAs } from './same-origin.js';
