/**
 * Media tool processes are bounded (issue 38, finding 5): ffprobe and ffmpeg run through one
 * pool per process whose size is the startup key `media_tools.concurrency`, behind a queue of
 * `media_tools.queue_size`; past both a request is answered `resource_exhausted` with a Retry-After, and
 * concurrent asks for one file (from one room or several) share one probe.
 *
 * The upstream holds every read of a file until the test releases it, so which jobs run, wait
 * or are refused is decided by the test, not by timing; the pool's gauges and counters
 * (`svc_media_tools_*` on the metrics listener) say where each job is.
 */
import test from 'ava';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { waitFor, withDeadline } from '../../fixtures/deadline.js';
import type { Answer, GatewayBed, Member } from '../../gateways/bed.js';
import { addItem, createRoom, startMediaBed } from '../media-bed.js';
import { makeSubtitledMkv } from './fixtures.js';

let bed: GatewayBed;
let owner: Member;
let upstream: Server;
let mkv: Buffer;
/** Paths of the reads the upstream received (the adds' one-byte seek probes left out). */
const reads: string[] = [];
const held: Array<() => void> = [];
let holding = true;

function serve(res: ServerResponse, range: string | undefined): void {
  const match = /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
  if (!match) return void res.writeHead(200, { 'content-type': 'video/x-matroska', 'content-length': mkv.length, 'accept-ranges': 'bytes' }).end(mkv);
  const start = Number(match[1]);
  const end = Math.min(match[2] ? Number(match[2]) : mkv.length - 1, mkv.length - 1);
  res.writeHead(206, { 'content-type': 'video/x-matroska', 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${mkv.length}` }).end(mkv.subarray(start, end + 1));
}

test.before(async () => {
  const made = await makeSubtitledMkv(4);
  mkv = await readFile(join(made.dir, made.file));
  upstream = createServer((req, res) => {
    if (req.headers.range === 'bytes=0-0') return serve(res, req.headers.range);
    reads.push(req.url ?? '');
    upstream.emit('read');
    if (holding) held.push(() => serve(res, req.headers.range));
    else serve(res, req.headers.range);
  });
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  bed = await startMediaBed('tool-pool', { SVC_MEDIA_TOOLS_CONCURRENCY: '1', SVC_MEDIA_TOOLS_QUEUE_SIZE: '1' });
  owner = await bed.signUp('owner');
});
test.after.always(async () => {
  await bed?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

const fileUrl = (name: string) => `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/${name}/movie.mkv`;

function release(): void {
  holding = false;
  for (const answer of held.splice(0)) answer();
}

async function metric(name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${bed.metricsUrl}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}${labels} `) || (labels === '' && candidate.startsWith(`${name} `)));
  return line === undefined ? 0 : Number(line.split(' ').pop());
}

const untilMetric = (name: string, labels: string, value: number) => waitFor(`${name}${labels} = ${value}`, async () => ((await metric(name, labels)) === value ? true : undefined), 10_000, 25);

interface Track {
  id: string;
}
type Listing = Answer<{ tracks: Track[]; code?: string; message?: string }>;

const list = (roomId: string, mediaId: string): Promise<Listing> => bed.call('GET', `/api/rooms/${roomId}/playlist/${mediaId}/subtitles`, undefined, owner.token);

test.serial('concurrent listings of one file, in one room or two, run one ffprobe and all get its answer; the file read with other headers is another job', async (t) => {
  holding = true;
  const first = await createRoom(bed, owner);
  const second = await createRoom(bed, owner);
  const third = await createRoom(bed, owner);
  const here = await addItem(bed, first, owner, { url: fileUrl('shared'), proxy: true });
  const there = await addItem(bed, second, owner, { url: fileUrl('shared'), proxy: true });
  const withToken = await addItem(bed, third, owner, { url: fileUrl('shared'), proxy: true, headers: { 'X-Token': 'secret' } });
  const probes = await metric('svc_media_tool_processes_total', '{tool="ffprobe"}');
  const joined = await metric('svc_media_tool_jobs_total', '{outcome="joined"}');
  const listings = [list(first, here), list(first, here), list(first, here)];
  await untilMetric('svc_media_tools_running', '', 1);
  listings.push(list(second, there), list(second, there));
  // One job reads the file; the other room's asks wait for its answer rather than starting their
  // own (the room's own repeated asks share the room's cached answer before they get that far).
  await untilMetric('svc_media_tool_jobs_total', '{outcome="joined"}', joined + 1);
  t.is(await metric('svc_media_tools_running'), 1);
  t.is(await metric('svc_media_tools_queued'), 0);
  // The same file with a credential of its own: what the others read without it is not its answer.
  listings.push(list(third, withToken));
  await untilMetric('svc_media_tools_queued', '', 1);
  t.is(await metric('svc_media_tool_jobs_total', '{outcome="joined"}'), joined + 1);
  release();
  const answers = await withDeadline(Promise.all(listings), 30_000, 'the listings');
  for (const answer of answers) {
    t.is(answer.status, 200, JSON.stringify(answer.body));
    t.deepEqual(
      answer.body.tracks.map((track) => track.id),
      ['e2', 'e3'],
    );
  }
  t.is(await metric('svc_media_tool_processes_total', '{tool="ffprobe"}'), probes + 2, 'one ffprobe for five listings, one for the item with a token');
});

test.serial('more distinct jobs than the pool and its queue hold are answered resource_exhausted with Retry-After; the pool runs as many as its startup key says', async (t) => {
  holding = true;
  reads.length = 0;
  const roomId = await createRoom(bed, owner);
  const items = [];
  for (const name of ['one', 'two', 'three']) items.push(await addItem(bed, roomId, owner, { url: fileUrl(name), proxy: true }));
  const refused = await metric('svc_media_tool_jobs_total', '{outcome="queue_full"}');

  const running = list(roomId, items[0]!);
  await untilMetric('svc_media_tools_running', '', 1);
  const waiting = list(roomId, items[1]!);
  await untilMetric('svc_media_tools_queued', '', 1);
  // media_tools.concurrency = 1: the second job waits; its file is not read yet.
  t.false(reads.some((path) => path.startsWith('/two/')), JSON.stringify(reads));

  const third = await list(roomId, items[2]!);
  t.is(third.status, 503, JSON.stringify(third.body));
  t.is(third.body.code, 'resource_exhausted');
  t.regex(third.body.message ?? '', /media tools/);
  const retryAfter = Number(third.headers.get('retry-after'));
  t.true(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After: ${third.headers.get('retry-after')}`);
  t.false(reads.some((path) => path.startsWith('/three/')), 'a refused job reads nothing');
  t.is(await metric('svc_media_tool_jobs_total', '{outcome="queue_full"}'), refused + 1);

  release();
  const [first, second] = await withDeadline(Promise.all([running, waiting]), 30_000, 'the admitted listings');
  t.is(first.status, 200, JSON.stringify(first.body));
  t.is(second.status, 200, JSON.stringify(second.body));
  t.deepEqual(
    second.body.tracks.map((track) => track.id),
    ['e2', 'e3'],
  );
  // Freed: the refused one goes through now.
  t.is((await list(roomId, items[2]!)).status, 200);
});
