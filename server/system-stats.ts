import type { SystemStats } from '../contracts/management.js';
import type { SliceCacheStats } from '../media/index.js';
import { packageVersion, type ReadinessProbe } from '../observability/index.js';
import type { Role } from './roles.js';
import { deploymentMethod } from './deployment.js';

export interface StatsSources {
  replicaId: string;
  roles: readonly Role[];
  startedAt: Date;
  readiness: ReadinessProbe;
  connectedClients(): number;
  activeActors(): number;
  /** Present when this replica runs the slice cache. */
  sliceCache?: () => SliceCacheStats;
}

/** What `svc system stats` shows about one running replica. */
export async function collectSystemStats(sources: StatsSources): Promise<SystemStats> {
  const memory = process.memoryUsage();
  return {
    version: packageVersion(),
    deploymentMethod: deploymentMethod(),
    replicaId: sources.replicaId,
    roles: [...sources.roles],
    startedAt: sources.startedAt.toISOString(),
    uptimeSeconds: Math.round((Date.now() - sources.startedAt.getTime()) / 1000),
    connectedClients: sources.connectedClients(),
    activeActors: sources.activeActors(),
    memory: {
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      heapTotalBytes: memory.heapTotal,
      externalBytes: memory.external,
    },
    dependencies: await sources.readiness.check(),
    ...(sources.sliceCache ? { sliceCache: sources.sliceCache() } : {}),
  };
}
