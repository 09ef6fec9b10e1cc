/**
 * `npm run soak`: the whole product under sustained traffic while things fail at random
 * (issue 29). Starts its own PostgreSQL, Redis, NATS and Temporal, 2 gateways, 3 actor hosts
 * and a worker; a few hundred sockets in a couple of hundred rooms plus HTTP and gRPC callers
 * and an admin deciding reviews; a fault every 10-20 s. Prints availability, recovery per fault
 * kind and the zero-checks, and exits non-zero when a zero-check fails.
 * See docs/2026-11-26-soak.md.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedSecrets } from '../../test/harness/replica.js';
import { runSvc } from '../../test/harness/svc-process.js';
import { auditActivations } from './activation-audit.js';
import { availability, availabilityByFault, recoveries, storedWrites } from './checks.js';
import { Cluster, killOnExit } from './cluster.js';
import { PrivateStack } from './dependencies.js';
import { FaultInjector } from './faults.js';
import { Ledger } from './ledger.js';
import { Load, RATES } from './load.js';
import { parseOptions } from './options.js';
import { Random } from './random.js';
import { printReport } from './report.js';
import { Reviewer } from './reviews.js';
import { RouteProxies } from '../../test/harness/route-proxies.js';
import { setUp } from './setup.js';

const began = Date.now();
/** Load after the last fault has ended, before the load stops. */
const SETTLE_MS = 15_000;
const log = (line: string): void => console.error(`soak +${((Date.now() - began) / 1000).toFixed(1).padStart(6)} s  ${line}`);

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const random = new Random(options.seed);
  log(
    `seed ${options.seed}; ${options.clients} sockets, ${options.rooms} rooms, ${options.reviews} reviews, ${options.durationS} s, ` +
      `NATS ${options.natsNodes === 3 ? 'a cluster of 3' : 'one server'}, ` +
      `PostgreSQL ${options.faults.includes('postgres-failover') ? 'a primary and a synchronous standby' : 'one server'}, faults ${options.faults.join(',') || 'none'}`,
  );
  log(`load: a chat every ~${RATES.chatEveryS} s and a playback command every ~${RATES.playbackEveryS} s per socket, a move every ~${RATES.moveEveryS} s per non-owner, ${RATES.httpPerS} HTTP and ${RATES.grpcPerS} gRPC calls/s`);

  let cluster: Cluster | undefined;
  killOnExit(() => cluster);
  // A cluster's routes go through proxies the nats-partition fault can cut.
  const routes = options.natsNodes === 3 ? await RouteProxies.start(3) : undefined;
  const stack = await PrivateStack.start(options.natsNodes, routes?.env(), options.faults.includes('postgres-failover'));
  const onSignal = (): void => {
    log('interrupted: stopping the private stack');
    void stack.destroy().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    log(`private stack in ${stack.dir}`);
    const migrated = await runSvc(['migrate'], { SVC_DATABASE_URL: stack.addresses.databaseUrl }, 120_000);
    if (migrated.code !== 0) throw new Error(`svc migrate failed: ${migrated.stderr}`);
    const logDir = process.env.SOAK_LOG_DIR ?? (await mkdtemp(join(tmpdir(), 'svc-soak-logs-')));
    cluster = await Cluster.start({ addresses: stack.addresses, secrets: await generatedSecrets(), logDir, gateways: 2, hosts: 3, workers: 1 });
    log(`cluster serving: ${cluster.slots.map((slot) => slot.name).join(', ')}; process logs in ${logDir}`);
    const gateways = cluster.gateways.map((slot) => ({ name: slot.name, url: slot.httpUrl, grpcAddress: slot.grpcAddress }));

    const world = await setUp({ url: gateways[0]!.url, databaseUrl: stack.addresses.databaseUrl, clients: options.clients, rooms: options.rooms, reviews: options.reviews, log });
    const ledger = new Ledger();
    const load = new Load(world, gateways, ledger, random.fork('load'));
    await load.connect();
    log(`${load.people.length} sockets in their rooms; load and faults start`);

    const durationMs = options.durationS * 1000;
    const reviewer = new Reviewer(world, gateways);
    const faults = new FaultInjector(options.faults, cluster, stack, random.fork('faults'), log, routes);
    const runStart = Date.now();
    load.start();
    reviewer.start(durationMs);
    faults.start();
    const progress = setInterval(() => {
      const done = ledger.commands.filter((record) => record.answeredAt !== undefined);
      const a = availability(done.filter((record) => record.sentAt > Date.now() - 30_000));
      log(`${ledger.commands.length} commands; last 30 s: ${a.commands} settled, ${((100 * a.within1s) / Math.max(1, a.commands)).toFixed(1)} % ok within 1 s; ${load.people.filter((p) => !p.inRoom).length} sockets out of their rooms`);
    }, 15_000);
    await new Promise((resolve) => setTimeout(resolve, durationMs));
    clearInterval(progress);
    log(`duration over: no new faults; the load goes on ${SETTLE_MS / 1000} s so that the last fault's recovery shows`);
    await faults.stop();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    log('no new actions; settling');
    await load.stop();
    const runEnd = Date.now();
    await reviewer.stop();

    // Everyone back in their room, as after any outage (the socket loop keeps trying).
    const back = Date.now() + 60_000;
    while (load.people.some((person) => !person.inRoom) && Date.now() < back) await new Promise((resolve) => setTimeout(resolve, 250));
    const notInRoom = load.people.filter((person) => !person.inRoom).length;
    await load.close();

    log('checking PostgreSQL and the reviews');
    const chats = ledger.commands.filter((record) => record.kind === 'chat.send');
    const adds = ledger.commands.filter((record) => record.kind === 'playlist.push');
    const chat = await storedWrites(stack.addresses.databaseUrl, chats, 'chat_messages', 'text');
    const playlist = await storedWrites(stack.addresses.databaseUrl, adds, 'room_playlist', 'title');
    const reviews = await reviewer.outcome(stack.addresses.databaseUrl);

    log('draining the cluster (every activation logs its end)');
    await cluster.stop();
    const audit = auditActivations(cluster.activationLines, cluster.incarnations);

    const byChannel = new Map(['ws', 'http', 'grpc'].map((channel) => [channel, availability(ledger.commands.filter((record) => record.channel === channel))]));
    const errorCodes = new Map<string, number>();
    for (const record of ledger.commands) if (!record.ok) errorCodes.set(record.code ?? '?', (errorCodes.get(record.code ?? '?') ?? 0) + 1);
    const checks = printReport({
      options,
      seconds: (runEnd - runStart) / 1000,
      overall: availability(ledger.commands),
      byChannel,
      byFault: availabilityByFault(ledger.commands, faults.faults),
      recoveries: recoveries(ledger.commands, faults.faults, cluster.activationLines, runEnd),
      chat,
      playlist,
      ledger,
      audit,
      reviews,
      notInRoom,
      errorCodes,
      restarts: cluster.incarnations.length - cluster.slots.length,
    });
    for (const note of cluster.notes) log(note);
    // The raw record, for looking into a failed check or a slow stretch after the run.
    await writeFile(join(logDir, 'commands.jsonl'), ledger.commands.map((record) => JSON.stringify(record)).join('\n') + '\n');
    await writeFile(join(logDir, 'faults.json'), JSON.stringify({ faults: faults.faults, sockets: ledger.sockets, reviews: reviewer.decisions, audit }, null, 2));
    log(`commands.jsonl and faults.json written to ${logDir}`);
    return checks.some((check) => check.count > 0) ? 1 : 0;
  } finally {
    await cluster?.stop().catch(() => undefined);
    await stack.destroy();
    await routes?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
