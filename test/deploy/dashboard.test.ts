/**
 * The Grafana dashboard (deploy/grafana/svc-dashboard.json) against the series the roles
 * really serve: a gateway, an actor host and a review worker on one stack, a little traffic
 * (a room, a chat message over a WebSocket, a signup under review approved), then every
 * metric name in every panel's PromQL must be in some role's scrape, and the room and review
 * series must have moved with the traffic. Prometheus itself does not build here, so the
 * expressions are checked by name, not evaluated.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import test from 'ava';
import { waitFor } from '../fixtures/deadline.js';
import { BED_PASSWORD, startGatewayBed, type GatewayBed } from '../gateways/bed.js';
import { open } from '../gateways/ws/fixtures.js';
import type { RealtimeClient } from '../harness/ws-client.js';
import { metricNamesOf, sampleSum, scrapedNames } from './promql-names.js';

interface Panel {
  title: string;
  type: string;
  targets?: Array<{ expr: string }>;
}

const DASHBOARD = new URL('../../../deploy/grafana/svc-dashboard.json', import.meta.url);

let gateway: GatewayBed;
let actors: GatewayBed;
let worker: GatewayBed;
const sockets: RealtimeClient[] = [];

test.before(async () => {
  // A task queue of its own: other test files' workers on the shared Temporal must not take these reviews.
  const env = { SVC_TEMPORAL_TASK_QUEUE: `test-dashboard-${randomBytes(4).toString('hex')}`, SVC_PROXY_SLICE_CACHE_ENABLED: 'true' };
  gateway = await startGatewayBed('dashboard', { roles: ['gateway'], env });
  actors = await startGatewayBed('dashboard_actors', { roles: ['actors'], databaseUrl: gateway.databaseUrl, env });
  worker = await startGatewayBed('dashboard_worker', { roles: ['worker'], databaseUrl: gateway.databaseUrl, env });
});
test.after.always(async () => {
  await Promise.all(sockets.map((socket) => socket.close().catch(() => undefined)));
  await gateway?.set('user', { passwordSignupNeedReview: false }).catch(() => undefined);
  for (const bed of [gateway, actors, worker]) await bed?.close();
});

const scrape = async (bed: GatewayBed): Promise<string> => (await fetch(`${bed.metricsUrl}/metrics`)).text();

test('every metric of every dashboard panel is served by some role, and the room and review series move with traffic', async (t) => {
  const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as { schemaVersion: number; panels: Panel[]; templating: { list: Array<{ name: string; type: string }> } };
  t.true(dashboard.schemaVersion >= 39);
  t.deepEqual(
    dashboard.templating.list.map((variable) => [variable.name, variable.type]),
    [
      ['datasource', 'datasource'],
      ['role', 'query'],
      ['instance', 'query'],
    ],
  );

  // Traffic: a room made over HTTP (the gateway asks the actor host), a chat message over a socket.
  const owner = await gateway.signUp('owner');
  const created = await gateway.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Dashboard night' }, owner.token);
  t.is(created.status, 201);
  const roomId = created.body.room.id;
  const socket = await open(gateway, roomId, owner);
  sockets.push(socket);
  await socket.command({ kind: 'chat.send', text: 'is the dashboard on?' });

  // A signup under review, approved by an admin: the worker starts and decides it.
  const admin = await gateway.admin();
  await gateway.set('user', { passwordSignupNeedReview: true });
  const username = `reviewed_${randomBytes(4).toString('hex')}`;
  const signup = await gateway.call<{ reviewId: string }>('POST', '/api/auth/password/register', { username, password: BED_PASSWORD }, undefined, {
    'x-svc-client': 'native',
  });
  t.is(signup.status, 202);
  await gateway.set('user', { passwordSignupNeedReview: false });
  const path = `/api/admin/reviews/${encodeURIComponent(signup.body.reviewId)}/approve`;
  // The approve is refused as not found until Temporal lists the just-started review.
  await waitFor('the review approved', async () => ((await gateway.call('POST', path, {}, admin.token)).status === 200 ? true : undefined), 30_000, 250);

  const actorScrape = await waitFor('the room series on the actor host', async () => {
    const text = await scrape(actors);
    return sampleSum(text, 'svc_actor_commands_total', { type: 'room', kind: 'chat.send', outcome: 'ok' }) >= 1 ? text : undefined;
  });
  t.is(sampleSum(actorScrape, 'svc_actor_activations_active', { type: 'room' }), 1);
  t.is(sampleSum(actorScrape, 'svc_actor_activations_total', { type: 'room', outcome: 'created' }), 1);
  t.is(sampleSum(actorScrape, 'svc_actor_activations_total', { type: 'room', outcome: 'taken_over' }), 0);
  t.true(sampleSum(actorScrape, 'svc_actor_commands_total', { type: 'room', kind: 'room.create', outcome: 'ok' }) >= 1);
  t.true(sampleSum(actorScrape, 'svc_actor_command_duration_seconds_count', { type: 'room', kind: 'chat.send' }) >= 1);
  t.true(sampleSum(actorScrape, 'svc_actor_events_published_total', { type: 'room' }) >= 1);

  const workerScrape = await waitFor('the review series on the worker', async () => {
    const text = await scrape(worker);
    return sampleSum(text, 'svc_reviews_decided_total', { kind: 'registration', outcome: 'approved' }) >= 1 ? text : undefined;
  });
  t.true(sampleSum(workerScrape, 'svc_reviews_started_total', { kind: 'registration' }) >= 1);
  t.true(sampleSum(workerScrape, 'svc_review_decision_seconds_count', { kind: 'registration', outcome: 'approved' }) >= 1);
  t.false(Number.isNaN(sampleSum(workerScrape, 'svc_reviews_pending', { kind: 'registration' })));

  const gatewayScrape = await scrape(gateway);
  t.is(sampleSum(gatewayScrape, 'realtime_sockets_open'), 1);
  t.is(sampleSum(gatewayScrape, 'svc_live_streams'), 0);

  const served = new Set([...scrapedNames(actorScrape), ...scrapedNames(workerScrape), ...scrapedNames(gatewayScrape)]);
  const missing: string[] = [];
  let expressions = 0;
  for (const panel of dashboard.panels) {
    if (panel.type === 'row') continue;
    t.true((panel.targets ?? []).length > 0, `panel "${panel.title}" has no query`);
    for (const { expr } of panel.targets ?? []) {
      expressions += 1;
      const names = metricNamesOf(expr);
      t.true(names.length > 0, `no metric name found in "${expr}"`);
      for (const name of names) if (!served.has(name)) missing.push(`${panel.title}: ${name}`);
    }
  }
  t.true(expressions >= 25);
  t.deepEqual(missing, [], 'dashboard metrics no role serves');
  // The role/instance variables read this series; every role has it.
  for (const text of [actorScrape, workerScrape, gatewayScrape]) t.true(scrapedNames(text).has('process_start_time_seconds'));
});
