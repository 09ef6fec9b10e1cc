/**
 * The public surface of crypto/: what code outside crypto/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { SecretBox } from './secret-box.js';
