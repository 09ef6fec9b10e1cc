/**
 * The public surface of images/: what code outside images/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { encodeUpload, readImageUpload } from './read-upload.js';
export { isVersionHash, versionHash } from './version-hash.js';
