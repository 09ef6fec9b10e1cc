/**
 * Live streams pulled from elsewhere (issue 40 section 6, docs/2026-11-29-pulled-live-streams.md):
 * ffmpeg publishing RTSP to a real RTSP server (MediaMTX) and SRT as its own listener; the
 * service pulls each when a member's player asks, serves it as HTTP-FLV and HLS on both replicas
 * (the second forwarded to the puller through the live registry), puts it on air in the room and
 * takes it off when the source stops. A camera's G.711 audio is converted to AAC. Every pull is
 * refused for the addresses the media proxy refuses, with errors naming `url`, and beyond
 * `live_pull.max_streams` with `resource_exhausted`.
 *
 * Replica a allows loopback (`media_proxy.allowed_networks` 127.0.0.0/8, as the proxy tests do
 * for their peers); replica b keeps the default policy, which refuses it.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import test from 'ava';
import { pino } from 'pino';
import { pullUrlProblem } from '../../contracts/room/pull-source.js';
import { pullInput } from '../../media/live/pull-input.js';
import { PullProvider } from '../../media/providers/pull.js';
import { AddressPolicy } from '../../media/proxy/address-policy.js';
import { freePort } from '../harness/stack.js';
import { startGatewayBed, type GatewayBed, type Member } from '../gateways/bed.js';
import { createRoom, open, roomsOf, type Rooms } from '../gateways/ws/fixtures.js';
import { waitFor } from '../fixtures/deadline.js';
import { ffprobe, firstBytes, liveLink, publish, type Publisher } from './live-fixtures.js';
import { startMediaMtx, type RtspServer } from './mediamtx.js';

let a: GatewayBed;
let b: GatewayBed;
let rooms: Rooms;
let rtsp: RtspServer;
/** What replica a logs at info level and above: the pulls it starts. */
const logLines: Array<Record<string, unknown>> = [];

test.before(async () => {
  rtsp = await startMediaMtx();
  a = await startGatewayBed('live_pull', {
    logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) }),
    env: { SVC_REPLICA_ID: 'pull-a', SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8', SVC_LIVE_PULL_MAX_STREAMS: '3', SVC_LIVE_PULL_IDLE_SECONDS: '5' },
  });
  b = await startGatewayBed('live_pull', { databaseUrl: a.databaseUrl, roles: ['gateway'], env: { SVC_REPLICA_ID: 'pull-b' } });
  rooms = await roomsOf(a);
});

test.after.always(async () => {
  await rooms?.close();
  await b?.close();
  await a?.close();
  await rtsp?.stop();
});

async function pullItem(owner: Member, url: string): Promise<{ roomId: string; mediaId: string; link: string }> {
  const room = await createRoom(rooms, owner);
  const added = await a.call<{ item: { id: string; live: boolean; provider: string } }>('POST', `/api/rooms/${room.id}/playlist`, { title: 'Camera', provider: 'pull', url }, owner.token);
  if (added.status !== 201) throw new Error(`adding a pull item failed: ${JSON.stringify(added.body)}`);
  const mediaId = added.body.item.id;
  return { roomId: room.id, mediaId, link: liveLink(a, { roomId: room.id, userId: owner.userId, sessionId: owner.sessionId, mediaId }) };
}

/** Plays the item as FLV and HLS from both replicas and checks the codecs. */
async function playsEverywhere(t: import('ava').ExecutionContext, link: string, audio = 'aac'): Promise<void> {
  for (const [name, bed] of [['puller', a], ['other replica', b]] as const) {
    const flv = await ffprobe(`${bed.url}${link}/stream.flv`);
    t.deepEqual(flv.codecs, { video: 'h264', audio }, `FLV from the ${name} (ffprobe exit ${flv.code}): ${flv.stderr}`);
    await waitFor(`a segment in the HLS playlist from the ${name}`, async () => /^seg\d+\.ts$/m.test(await (await fetch(`${bed.url}${link}/index.m3u8`)).text()) || undefined, 20_000);
    const hls = await ffprobe(`${bed.url}${link}/index.m3u8`);
    t.deepEqual(hls.codecs, { video: 'h264', audio }, `HLS from the ${name} (ffprobe exit ${hls.code}): ${hls.stderr}`);
  }
}

async function goesLiveThenOff(t: import('ava').ExecutionContext, owner: Member, item: { roomId: string; mediaId: string; link: string }, publisher: Publisher, audio = 'aac'): Promise<void> {
  const socket = await open(b, item.roomId, owner);
  try {
    const head = await firstBytes(`${a.url}${item.link}/stream.flv`, 3);
    t.is(head.status, 200);
    t.is(head.type, 'video/x-flv');
    t.is(head.bytes.subarray(0, 3).toString('latin1'), 'FLV');
    const online = await socket.waitForEvent((m) => m.event.type === 'live', 15_000);
    t.deepEqual(online.event, { type: 'live', mediaId: item.mediaId, online: true });
    await playsEverywhere(t, item.link, audio);
  } finally {
    await publisher.stop();
  }
  const offline = await socket.waitForEvent((m) => m.event.type === 'live' && (m.event as { online: boolean }).online === false, 20_000);
  t.deepEqual(offline.event, { type: 'live', mediaId: item.mediaId, online: false });
  await socket.close();
}

test.serial('an RTSP stream published by ffmpeg to an RTSP server is pulled: FLV and HLS on both replicas, on air, off air when it stops', async (t) => {
  const owner = await a.signUp('rtsp');
  const publisher = publish(`${rtsp.url}/cam1`, { format: 'rtsp' });
  await publisher.sent(1);
  const item = await pullItem(owner, `${rtsp.url}/cam1`);
  await goesLiveThenOff(t, owner, item, publisher);
});

test.serial("a camera's G.711 audio over RTSP is converted to AAC (the video copied)", async (t) => {
  const owner = await a.signUp('g711');
  const publisher = publish(`${rtsp.url}/cam2`, { format: 'rtsp', audio: ['-c:a', 'pcm_mulaw', '-ar', '8000'] });
  await publisher.sent(1);
  const item = await pullItem(owner, `${rtsp.url}/cam2`);
  await goesLiveThenOff(t, owner, item, publisher, 'aac');
});

test.serial('an SRT stream is pulled as caller from ffmpeg listening on loopback', async (t) => {
  const owner = await a.signUp('srt');
  const port = await freePort();
  // ffmpeg waits as the SRT listener; the service connects as caller when the first player asks.
  const publisher = publish(`srt://127.0.0.1:${port}?mode=listener`, { format: 'mpegts' });
  const item = await pullItem(owner, `srt://127.0.0.1:${port}?latency=120000`);
  await goesLiveThenOff(t, owner, item, publisher);
});

test.serial('every pull is refused for the addresses the proxy refuses, naming url', async (t) => {
  const owner = await a.signUp('refused');
  // Replica b keeps the default policy: loopback is refused when it would pull.
  for (const url of [`${rtsp.url}/cam1`, 'srt://127.0.0.1:9?streamid=x', 'rtmp://127.0.0.1:1935/live/x', 'http://127.0.0.1:9/live.m3u8']) {
    const item = await pullItem(owner, url);
    const refused = await b.call<{ code: string; message: string }>('GET', `${item.link}/stream.flv`);
    t.is(refused.status, 403, url);
    t.is(refused.body.code, 'forbidden', url);
    t.regex(refused.body.message, /^url: /, url);
    t.regex(refused.body.message, /127\.0\.0\.1/, url);
    t.regex(refused.body.message, /loopback/, url);
    t.regex(refused.body.message, /media_proxy\.allowed_networks/, url);
  }

  // Adding such an item where the policy refuses it: the provider names url at once for an IP literal.
  const strict = new PullProvider(new AddressPolicy());
  for (const url of ['rtsp://127.0.0.1/cam', 'rtsp://[::1]:554/cam', 'rtsp://[::ffff:127.0.0.1]/cam', 'srt://10.0.0.5:9000', 'rtmp://169.254.169.254/app/x']) {
    const issues = strict.check({ url });
    t.is(issues.length, 1, url);
    t.is(issues[0]?.key, 'url', url);
    t.regex(issues[0]?.message ?? '', /media_proxy\.allowed_networks/, url);
  }
  t.deepEqual(strict.check({ url: 'rtsp://camera.example.com/stream' }), [], 'a name is judged when it is resolved');

  // A name is resolved once and every address judged; ffmpeg gets the checked literal.
  const policy = new AddressPolicy();
  const resolvesTo = (addresses: string[]) => () => Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  for (const addresses of [['10.1.2.3'], ['93.184.216.34', '127.0.0.1'], ['::ffff:192.168.1.1']]) {
    const error = await t.throwsAsync(pullInput('rtsp://user:secret@camera.example.com/live', policy, resolvesTo(addresses)));
    t.regex(error?.message ?? '', /^url: this server does not pull from camera\.example\.com \(/, addresses.join());
    t.notRegex(error?.message ?? '', /secret/);
  }
  const input = await pullInput('rtsp://user:secret@camera.example.com:8554/live', policy, resolvesTo(['93.184.216.34']));
  t.truthy(input.guard, 'RTSP is read through the guard, which connects to the checked address');
  t.true(input.args.includes(`rtsp://user:secret@127.0.0.1:${input.guard!.port}/live`), 'ffmpeg connects to the guard on loopback');
  input.guard!.close();
  t.is(input.shown, 'rtsp://***@camera.example.com:8554/live');
  t.deepEqual(input.args.slice(input.args.indexOf('-protocol_whitelist'), input.args.indexOf('-protocol_whitelist') + 2), ['-protocol_whitelist', 'rtsp,tcp']);
  const rtmp = await pullInput('rtmp://live.example.com/app/key', policy, resolvesTo(['93.184.216.34']));
  t.true(rtmp.args.includes('rtmp://93.184.216.34/app/key'));
  t.is(rtmp.args[rtmp.args.indexOf('-rtmp_tcurl') + 1], 'rtmp://live.example.com/app', 'the tcUrl keeps the name');
  const srt = await pullInput('srt://live.example.com:9000?streamid=cam&latency=200000', policy, resolvesTo(['93.184.216.34']));
  t.true(srt.args.includes('srt://93.184.216.34:9000?mode=caller&streamid=cam&latency=200000'));
  const hls = await pullInput('https://cdn.example.com/live.m3u8', policy, resolvesTo(['127.0.0.1']));
  t.is(hls.hlsPlaylist, 'https://cdn.example.com/live.m3u8', 'an HLS source is read by the checked upstream client');
  t.true(hls.args.includes('pipe:0'));
  t.deepEqual(hls.args.slice(0, 2), ['-protocol_whitelist', 'pipe'], "ffmpeg's own HLS reader is never used");
});

test.serial('the URL of a pull item is refused for other schemes and unsafe options, naming url', async (t) => {
  const owner = await a.signUp('schemes');
  const room = await createRoom(rooms, owner);
  const cases: Array<[string, RegExp]> = [
    ['file:///etc/passwd', /schemes rtmp, rtmps, rtsp, srt, http, https/],
    ['rtsps://cam.example.com:322/stream', /not "rtsps"|schemes rtmp, rtmps, rtsp, srt/],
    ['udp://239.0.0.1:1234', /not "udp"/],
    ['concat:/etc/passwd', /schemes/],
    ['srt://example.com:9000?mode=listener', /srt option "mode"/],
    ['srt://example.com:9000?localport=80', /srt option "localport"/],
    ['rtmp://user:pw@example.com/app/key', /user name or password/],
    ['rtmp://example.com/app', /application and the stream/],
    ['rtsp://example.com/cam?x=1', /query/],
  ];
  for (const [url, message] of cases) {
    const refused = await a.call<{ code: string; issues?: Array<{ key: string; message: string }> }>('POST', `/api/rooms/${room.id}/playlist`, { title: 'Bad', provider: 'pull', url }, owner.token);
    t.is(refused.status, 400, url);
    t.is(refused.body.issues?.[0]?.key, 'url', url);
    t.regex(refused.body.issues?.[0]?.message ?? '', message, url);
    t.regex(pullUrlProblem(url, 2048) ?? '', message, `the room's own check: ${url}`);
  }
});

test.serial('an RTSP source that redirects is refused, naming url, and ffmpeg never reaches where it pointed', async (t) => {
  const owner = await a.signUp('redirect');
  // Where the redirect points: any connection here is the hole the guard closes.
  const reached: string[] = [];
  const trap = createServer((socket) => {
    reached.push('connected');
    socket.destroy();
  });
  trap.listen(0, '127.0.0.1');
  await once(trap, 'listening');
  const trapPort = (trap.address() as AddressInfo).port;
  // An RTSP source at an allowed address that answers every request with a redirect.
  const source = createServer((socket) => {
    socket.on('data', (data: Buffer) => {
      const cseq = /CSeq:\s*(\d+)/i.exec(data.toString('latin1'))?.[1] ?? '1';
      socket.write(`RTSP/1.0 302 Moved Temporarily\r\nCSeq: ${cseq}\r\nLocation: rtsp://127.0.0.1:${trapPort}/camera\r\n\r\n`);
    });
  });
  source.listen(0, '127.0.0.1');
  await once(source, 'listening');
  t.teardown(() => {
    trap.close();
    source.close();
  });
  const item = await pullItem(owner, `rtsp://127.0.0.1:${(source.address() as AddressInfo).port}/camera`);
  const refused = await a.call<{ code: string; message: string }>('GET', `${item.link}/stream.flv`);
  t.is(refused.status, 403);
  t.is(refused.body.code, 'forbidden');
  t.regex(refused.body.message, /^url: the source redirected the pull elsewhere/);
  t.deepEqual(reached, [], 'nothing connected where the redirect pointed');
});

test.serial('beyond live_pull.max_streams a player is refused with resource_exhausted', async (t) => {
  const owner = await a.signUp('limit');
  // The pulls of the tests before have stopped (nobody watches them any more).
  const stopped = (): boolean => {
    const pulled = new Set(logLines.filter((line) => line.msg === 'pulling a live stream').map((line) => line.mediaId));
    return [...pulled].every((mediaId) => logLines.some((line) => line.msg === 'pull stopped' && line.mediaId === mediaId));
  };
  await waitFor('the earlier pulls to stop', () => (stopped() ? true : undefined), 30_000);
  // Sources that do not answer: each pull keeps trying while its player waits.
  const items: Array<{ roomId: string; mediaId: string; link: string }> = [];
  for (let index = 0; index < 4; index += 1) items.push(await pullItem(owner, `${rtsp.url}/nobody-${index}`));
  const waiting = items.slice(0, 3).map((item) => a.call<{ code: string }>('GET', `${item.link}/stream.flv`));
  const started = (mediaId: string): boolean => logLines.some((line) => line.msg === 'pulling a live stream' && line.mediaId === mediaId);
  await waitFor('the three pulls to start', () => (items.slice(0, 3).every((item) => started(item.mediaId)) ? true : undefined), 10_000);
  const refused = await a.call<{ code: string; message: string }>('GET', `${items[3]!.link}/stream.flv`);
  t.is(refused.status, 503);
  t.is(refused.body.code, 'resource_exhausted');
  t.regex(refused.body.message, /already pulls 3 live streams.*live_pull\.max_streams/);
  for (const answer of await Promise.all(waiting)) {
    t.is(answer.status, 503);
    t.is(answer.body.code, 'unavailable');
  }
});
