import { Command, Option } from 'clipanion';
import { routes, type SystemStats } from '../../contracts/management.js';
import { managementClientFor } from '../management.js';
import { parseOutputFormat, renderStructured, renderTable } from '../output.js';
import { SvcCommand } from '../svc-command.js';

export class SystemStatsCommand extends SvcCommand {
  static override paths = [['system', 'stats']];
  static override usage = Command.Usage({
    category: 'Diagnostics',
    description: 'Show the state of a running replica',
    details: `
      Asks a running \`svc serve\` through its management endpoint for: version, deployment method, uptime, process roles, replica id, connected clients, active actors, memory, the state of every dependency (PostgreSQL, migrations, Redis, NATS, Temporal) and, on a gateway with \`proxy_slice_cache.enabled\`, the slice cache's hits, misses, bytes, evictions, revalidations, readaheads and size. The CLI and the server must agree on \`management.endpoint\` (or \`SVC_MANAGEMENT_ENDPOINT\`) and, for TCP, \`management.token\`.
    `,
    examples: [
      ['Stats of the local replica', '$0 system stats'],
      ['As JSON, over TCP', 'SVC_MANAGEMENT_ENDPOINT=tcp://10.0.0.5:9100 SVC_MANAGEMENT_TOKEN=... $0 system stats --output json'],
    ],
  });

  output = Option.String('--output,-o', { description: 'table|json|yaml (default table)' });

  async run(): Promise<number> {
    const format = parseOutputFormat(this.output, ['table', 'json', 'yaml'], 'table');
    const client = await managementClientFor(this.configFile());
    const stats = await client.get<SystemStats>(routes.stats);
    if (format !== 'table') {
      this.context.stdout.write(renderStructured(stats, format));
      return 0;
    }
    const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    this.context.stdout.write(
      renderTable(
        ['field', 'value'],
        [
          ['version', stats.version],
          ['deployment method', stats.deploymentMethod],
          ['replica id', stats.replicaId],
          ['roles', stats.roles.join(', ')],
          ['started at', stats.startedAt],
          ['uptime', `${stats.uptimeSeconds} s`],
          ['connected clients', String(stats.connectedClients)],
          ['active actors', String(stats.activeActors)],
          ['memory (rss / heap used)', `${mib(stats.memory.rssBytes)} / ${mib(stats.memory.heapUsedBytes)}`],
        ],
      ),
    );
    this.context.stdout.write(
      renderTable(
        ['dependency', 'state', 'latency', 'error'],
        stats.dependencies.map((dep) => [dep.name, dep.ok ? 'ok' : 'DOWN', dep.latencyMs === undefined ? '' : `${dep.latencyMs} ms`, dep.error ?? '']),
      ),
    );
    const cache = stats.sliceCache;
    if (cache) {
      this.context.stdout.write(
        renderTable(
          ['slice cache', 'value'],
          [
            ['hits / misses', `${cache.hits} / ${cache.misses}`],
            ['bytes from cache / upstream', `${mib(cache.bytesFromCache)} / ${mib(cache.bytesFromUpstream)}`],
            ['evictions', String(cache.evictions)],
            ['revalidations', String(cache.revalidations)],
            ['readaheads', String(cache.readaheads)],
            ['size', `${mib(cache.sizeBytes)} of ${mib(cache.maxBytes)} (${cache.entries} slices)`],
          ],
        ),
      );
    }
    return 0;
  }
}
