/**
 * The public surface of server/: what code outside server/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
import type { RunningService, ServiceOptions } from './service.js';

export { ROLES, resolveRoles } from './roles.js';
export type { RunningService, ServiceOptions } from './service.js';

/**
 * Starts the service. The service module is loaded on this call, not with this entry: every
 * other CLI command starts faster without its dependencies (Temporal, gRPC, WebSocket, the room
 * actor).
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const service = await import('./service.js');
  return service.startService(options);
}
