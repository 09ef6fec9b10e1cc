/**
 * What `/health/ready` and `svc system stats` report about each dependency.
 */
export type DependencyName = 'postgres' | 'migrations' | 'redis' | 'nats' | 'temporal';

export interface DependencyState {
  name: DependencyName;
  ok: boolean;
  /** Round-trip time of the check, when it answered. */
  latencyMs?: number;
  /** The first error seen, verbatim enough to act on. */
  error?: string;
}

export interface ReadinessProbe {
  /** Checks every dependency concurrently, each bounded by a short deadline. */
  check(): Promise<DependencyState[]>;
  /**
   * What a role says of itself beside its dependencies, for operators (the transcoder names its
   * encoder: `{ transcoder: { encoder: 'libx264 (superfast, 2 threads)', running: 1, limit: 1 } }`).
   */
  details?(): Record<string, unknown>;
}
