/**
 * The soak's command line: `npm run soak -- [--duration 600] [--faults kill,stop,...]
 * [--clients 300] [--rooms 200] [--seed N] [--nats-cluster 3]`. Wrong input stops the run before
 * anything starts.
 */
export const FAULT_KINDS = ['kill', 'stop', 'term', 'nats', 'postgres', 'redis', 'temporal', 'nats-node', 'nats-rolling', 'nats-partition', 'postgres-failover'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/** Faults of one node of a NATS cluster: they need `--nats-cluster 3`. */
const CLUSTER_FAULTS: readonly FaultKind[] = ['nats-node', 'nats-rolling', 'nats-partition'];

export interface SoakOptions {
  /** Seconds of load with faults (setup and the final checks come on top). */
  durationS: number;
  faults: FaultKind[];
  clients: number;
  rooms: number;
  seed: number;
  /** Rooms created under review at the start and decided during the run. */
  reviews: number;
  /** NATS servers: 1, or a cluster of 3 with every bucket kept in three copies. */
  natsNodes: 1 | 3;
}

const DEFAULTS: SoakOptions = { durationS: 600, faults: [], clients: 300, rooms: 200, seed: Date.now() % 1_000_000, reviews: 24, natsNodes: 1 };

export const USAGE =
  'usage: npm run soak -- [--duration <seconds>] [--faults ' +
  FAULT_KINDS.join(',') +
  '] [--clients <n>] [--rooms <n>] [--reviews <n>] [--seed <n>] [--nats-cluster 1|3] (duration at most 3000; ' +
  CLUSTER_FAULTS.join(' and ') +
  ' need --nats-cluster 3; without --faults, every kind the NATS topology allows)';

export function parseOptions(argv: readonly string[]): SoakOptions {
  const options: SoakOptions = { ...DEFAULTS, faults: [...DEFAULTS.faults] };
  let faults: FaultKind[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (flag === '--help' || flag === '-h') throw new Error(USAGE);
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    i++;
    switch (flag) {
      case '--duration':
        // The people's access tokens live an hour (cluster.ts), setup included.
        options.durationS = integer(flag, value, 10, 3_000);
        break;
      case '--clients':
        options.clients = integer(flag, value, 1, 5_000);
        break;
      case '--rooms':
        options.rooms = integer(flag, value, 1, 2_000);
        break;
      case '--reviews':
        options.reviews = integer(flag, value, 0, 500);
        break;
      case '--seed':
        options.seed = integer(flag, value, 0, Number.MAX_SAFE_INTEGER);
        break;
      case '--faults':
        faults = faultList(value);
        break;
      case '--nats-cluster':
        if (value !== '1' && value !== '3') throw new Error(`--nats-cluster must be 1 or 3, not "${value}"`);
        options.natsNodes = value === '3' ? 3 : 1;
        break;
      default:
        throw new Error(`unknown option ${flag}\n${USAGE}`);
    }
  }
  options.faults = faults ?? FAULT_KINDS.filter((kind) => options.natsNodes === 3 || !CLUSTER_FAULTS.includes(kind));
  const needCluster = options.faults.filter((kind) => CLUSTER_FAULTS.includes(kind));
  if (needCluster.length > 0 && options.natsNodes !== 3) throw new Error(`--faults ${needCluster.join(',')}: a fault of one NATS node needs --nats-cluster 3`);
  if (options.rooms > options.clients) throw new Error(`--rooms (${options.rooms}) must be at most --clients (${options.clients}): every room needs a member`);
  return options;
}

function integer(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} must be an integer from ${min} to ${max}, not "${value}"`);
  return n;
}

function faultList(value: string): FaultKind[] {
  if (value === '' || value === 'none') return [];
  const kinds = value.split(',').map((kind) => kind.trim());
  for (const kind of kinds) {
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) throw new Error(`--faults: unknown fault "${kind}"; expected some of ${FAULT_KINDS.join(',')}`);
  }
  return [...new Set(kinds)] as FaultKind[];
}
