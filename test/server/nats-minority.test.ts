/**
 * A process whose NATS server is cut off from the other two nodes moves to the majority side by
 * itself (server/nats-minority.ts), where JetStream answers again; a process on the majority side
 * stays where it is. A real three-node cluster whose routes go through proxies on loopback
 * (test/harness/route-proxies.ts), cut as the soak's nats-partition fault cuts them.
 */
import test from 'ava';
import { connect, Events, type NatsConnection } from 'nats';
import { pino } from 'pino';
import { natsOptions } from '../../server/connections.js';
import { leaveMinoritySide } from '../../server/nats-minority.js';
import { eventually } from '../fixtures/deadline.js';
import { RouteProxies } from '../harness/route-proxies.js';
import { startPrivateNatsCluster, type PrivateCluster } from '../harness/stack.js';

let proxies: RouteProxies;
let cluster: PrivateCluster;

test.before(async () => {
  proxies = await RouteProxies.start(3);
  cluster = await startPrivateNatsCluster(proxies.env());
});
test.after.always(async () => {
  await cluster?.destroy();
  await proxies?.close();
});

/** A connection to `first` (then the others, in order), and the times it dropped. */
async function connectedTo(first: number, label: string): Promise<{ nc: NatsConnection; drops: () => number }> {
  const urls = cluster.nodes.map((node) => node.url);
  const nc = await connect({ ...natsOptions([...urls.slice(first), ...urls.slice(0, first)], label), noRandomize: true });
  let drops = 0;
  void (async () => {
    for await (const status of nc.status()) if (status.type === Events.Disconnect) drops += 1;
  })();
  return { nc, drops: () => drops };
}

async function jetStreamAnswers(nc: NatsConnection): Promise<boolean> {
  const jsm = await nc.jetstreamManager({ timeout: 1_000 });
  return jsm.getAccountInfo().then(
    () => true,
    () => false,
  );
}

test('a process on a node cut off from the others moves to the majority side; one on the majority side stays', async (t) => {
  const [first, second] = cluster.nodes;
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
  const cutOff = await connectedTo(0, 'on-the-cut-off-node');
  const majority = await connectedTo(1, 'on-the-majority-side');
  t.teardown(() => Promise.all([cutOff.nc.close(), majority.nc.close()]));
  for (const { nc } of [cutOff, majority]) {
    await eventually(() => nc.info?.connect_urls?.length === 3, 30_000, 'the server routes to the whole cluster');
    const watch = leaveMinoritySide(nc, { logger });
    t.teardown(() => watch.stop());
  }
  await eventually(() => jetStreamAnswers(cutOff.nc), 30_000, 'JetStream answers');
  t.is(cutOff.nc.info?.server_name, first!.name);
  t.is(majority.nc.info?.server_name, second!.name);

  proxies.partition(0);
  try {
    // Connected again (info is there only while connected), to a server that routes to another.
    const elsewhere = () => {
      const info = cutOff.nc.info;
      return info !== undefined && info.server_name !== first!.name && (info.connect_urls?.length ?? 0) >= 2;
    };
    await eventually(elsewhere, 10_000, 'the process left the cut-off node');
    await eventually(() => jetStreamAnswers(cutOff.nc), 30_000, 'JetStream answers on the majority side');
    // One move: nats.js may dial the server it left first, and then the next at once.
    t.true(cutOff.drops() >= 1 && cutOff.drops() <= 2, `${cutOff.drops()} disconnects`);
    t.true(warnings.some((line) => line.includes('reaches no majority of its cluster')), warnings.join('\n'));
    // The majority side lost a node, not its majority: nobody there moved.
    t.is(majority.nc.info?.server_name, second!.name);
    t.is(majority.drops(), 0);
  } finally {
    proxies.heal();
  }
});
