/**
 * The public surface of webrtc/: what code outside webrtc/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { iceServerSource, type IceServerSource } from './ice-servers.js';
