/**
 * SFU figures (issue 42, docs/2026-11-29-sfu.md), on this machine, against a LiveKit node of
 * the bench's own and Debian's Chromium:
 *  - screen: one 1080p30 screen share (a synthetic capture: a canvas carrying its clock in a
 *    pixel code, bench/sfu/page.mjs) to RECEIVERS receivers (default 30), all on the top layer.
 *    RENDER of them (default 3) decode and present every frame and read the code back:
 *    glass-to-glass p50/p95/p99 (target p99 < 400 ms) and a presenting receiver's CPU. The
 *    others count the frames they receive without decoding them (thirty decoders of 1080p would
 *    be thirty viewers' machines, not this one's two cores). Also: frames and packets lost, the
 *    sharer's layers, and the SFU's CPU per receiver. The sharer, the presenting and the
 *    counting receivers each run in a Chromium of their own, so each CPU figure is theirs.
 *  - voice: MEMBERS (default 16) members in a call, each a tone of its own; each join is timed
 *    from the start of the join to hearing every other member: p50/p99 (target p99 < 1.5 s),
 *    and the SFU's CPU per member with all of them talking.
 * Run with `npm run bench:sfu [-- screen|voice]`. Environment: BENCH_SFU_RECEIVERS,
 * BENCH_SFU_RENDER, BENCH_SFU_SECONDS (the measured window, default 20), BENCH_SFU_MEMBERS,
 * BENCH_SFU_CODEC (the share's codec: vp8, the web client's, by default; h264, vp9, av1),
 * BENCH_SFU_PLI_THROTTLE (the SFU's key frame requests per layer at most one per, default 10s).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AccessToken } from 'livekit-server-sdk';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../test/harness/stack.js';
import { startStunListener } from '../gateways/index.js';
import { createLogger } from '../observability/index.js';
import { startSfuCluster } from '../test/fixtures/livekit.js';
import { callBudget, SCREEN_SIZE } from '../web/src/call/budget.js';
import { percentile } from './percentile.js';
import { childrenOf, cpuSeconds } from './proc.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const RECEIVERS = Number(process.env.BENCH_SFU_RECEIVERS ?? 30);
const RENDER = Number(process.env.BENCH_SFU_RENDER ?? 3);
const SECONDS = Number(process.env.BENCH_SFU_SECONDS ?? 20);
const MEMBERS = Number(process.env.BENCH_SFU_MEMBERS ?? 16);
const CODEC = process.env.BENCH_SFU_CODEC ?? 'vp8';
const PLI_THROTTLE = process.env.BENCH_SFU_PLI_THROTTLE ?? '10s';
/** Receivers (or members) one page holds: pages are processes, and thirty of them would not fit. */
const PER_PAGE = 10;
const CHROMIUM_FLAGS = ['--autoplay-policy=no-user-gesture-required', '--use-fake-ui-for-media-stream', '--disable-renderer-backgrounding', '--disable-background-timer-throttling'];

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
const ms = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : 'n/a');

/** What a presenting receiver saw (page.mjs measures()). */
interface Presented {
  samples: number[];
  presented: number;
  first: number | null;
  last: number | null;
  misread: number;
}

/** One simulcast layer the sharer sends (page.mjs sentLayers()). */
interface SentLayer {
  rid: string;
  framesSent: number;
  frameHeight: number;
  limit: string;
  keyFrames: number;
  plis: number;
}

/** What a counting receiver took in (page.mjs counted()). */
interface Counted {
  frames: number;
  bytes: number;
  keyFrames: number;
}

/** One receiver's inbound video (page.mjs videoStats()). */
interface VideoStats {
  framesReceived: number;
  framesDecoded: number;
  framesDropped: number;
  packetsLost: number;
  frameHeight: number;
}

interface LiveKit {
  wsUrl: string;
  /** For the pages' ICE: the stack's LiveKit gathers candidates on loopback only (infra/stack/livekit.sh), and Chromium offers none there; a STUN answer from loopback gives it one, as the service's own STUN listener does for its clients. */
  iceServers: Array<{ urls: string[] }>;
  pid(): Promise<number>;
  keys: { apiKey: string; apiSecret: string };
  stop(): Promise<void>;
}

/** One LiveKit node of the bench's own (test/fixtures/livekit.ts), so its CPU is the bench's alone. */
async function startLiveKit(): Promise<LiveKit> {
  // The counting receivers' decoders never get a frame and ask for a key frame every second,
  // which no real viewer does; one per 10 s keeps that from costing the sharer a 1080p key frame
  // a second (bench/sfu/page.mjs). Real loss would ask as often; this bench loses no packets.
  const cluster = await startSfuCluster({ nodes: 1, pliThrottle: PLI_THROTTLE });
  const node = cluster.nodes[0]!;
  const stun = await startStunListener('127.0.0.1', 0, createLogger({ level: 'silent' }));
  return {
    wsUrl: node.publicUrl,
    iceServers: [{ urls: [`stun:127.0.0.1:${stun.address.port}`] }],
    pid: () => node.pid(),
    keys: cluster,
    stop: async () => {
      await stun.close();
      await cluster.destroy();
    },
  };
}

/** Serves an empty page that loads bench/sfu/page.mjs (as window.bench) and livekit-client's bundle. */
async function servePage(): Promise<{ url: string; close(): Promise<void> }> {
  const files: Record<string, string> = {
    '/page.mjs': join(ROOT, 'bench/sfu/page.mjs'),
    '/livekit-client.mjs': join(ROOT, 'node_modules/livekit-client/dist/livekit-client.esm.mjs'),
  };
  const server: Server = createServer((request, response) => {
    const file = files[request.url ?? ''];
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<!doctype html><title>bench:sfu</title><script type="module">import * as bench from '/page.mjs'; window.bench = bench; document.title = 'ready';</script>`);
      return;
    }
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    void readFile(file).then((body) => {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(body);
    });
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((done) => server.close(() => done())) };
}

async function token(identity: string, room: string, publish: boolean): Promise<string> {
  const { keys } = sfu;
  const grant = new AccessToken(keys.apiKey, keys.apiSecret, { identity, ttl: 600 });
  grant.addGrant({ roomJoin: true, room, canSubscribe: true, canPublish: publish, canPublishData: false });
  return grant.toJwt();
}

/** Calls `bench.<name>(arg)` of bench/sfu/page.mjs in the page (in-page code is a string: no DOM types here). */
async function call<T>(page: Page, name: string, arg?: unknown): Promise<T> {
  return page.evaluate<T>(`window.bench.${name}(${arg === undefined ? '' : JSON.stringify(arg)})`);
}

async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  await page.waitForFunction(`document.title === 'ready'`);
  return page;
}

const browserPids = new Map<Browser, number>();

/** Launches a Chromium of its own, remembering its process (playwright-core does not say it). */
async function launch(): Promise<Browser> {
  const before = new Set(await childrenOf(process.pid));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
  const pid = (await childrenOf(process.pid)).find((child) => !before.has(child));
  if (pid === undefined) throw new Error('the Chromium just launched is not a child of this process');
  browserPids.set(browser, pid);
  return browser;
}

/** CPU seconds of a Chromium: its browser process and every process under it. */
async function browserCpu(browser: Browser): Promise<number> {
  const tree: number[] = [];
  const walk = async (pid: number): Promise<void> => {
    tree.push(pid);
    for (const child of await childrenOf(pid).catch(() => [])) await walk(child);
  };
  await walk(browserPids.get(browser)!);
  return (await Promise.all(tree.map(cpuSeconds))).reduce((sum, seconds) => sum + seconds, 0);
}

async function screen(sfu: LiveKit, pageUrl: string): Promise<void> {
  const room = `screen-${randomBytes(3).toString('hex')}`;
  const [publisherBrowser, presentBrowser, countBrowser] = [await launch(), await launch(), await launch()];
  try {
    const publisher = await openPage(publisherBrowser, pageUrl);
    // What the web client sends for a share within the default caps (sfu.shareMaxKbps 4000, sfu.memberMaxKbps 6000).
    const plan = callBudget({ memberKbps: 6000, shareKbps: 4000, cameraKbps: 1200 }, true).screen!;
    const { width, height, fps } = SCREEN_SIZE;
    await call(publisher, 'publishScreen', { url: sfu.wsUrl, iceServers: sfu.iceServers, token: await token('sharer', room, true), width, height, fps, plan, codec: CODEC });
    const receivers = async (browser: Browser, first: number, count: number, present: boolean): Promise<Page> => {
      const page = await openPage(browser, pageUrl);
      const tokens = await Promise.all(Array.from({ length: count }, async (_, i) => ({ name: `r${first + i}`, token: await token(`r${first + i}`, room, false) })));
      await call(page, 'receive', { url: sfu.wsUrl, iceServers: sfu.iceServers, tokens, present });
      return page;
    };
    const render = Math.min(RENDER, RECEIVERS);
    // A presenting receiver per page: each is a viewer's tab of its own.
    const presenting: Page[] = [];
    for (let i = 0; i < render; i++) presenting.push(await receivers(presentBrowser, i, 1, true));
    const counting: Page[] = [];
    for (let first = render; first < RECEIVERS; first += PER_PAGE) counting.push(await receivers(countBrowser, first, Math.min(PER_PAGE, RECEIVERS - first), false));
    const pages = [...presenting, ...counting];
    const layers = [plan.top, ...plan.lower].map((layer) => `${layer.height}p${layer.maxFramerate} ${layer.maxBitrate / 1000} kbit/s`).join(' over ');
    console.log(`screen: 1 share, ${width}x${height} drawn at ${fps} fps, ${CODEC}, the web client's layers (${layers}); ${RECEIVERS} receivers on the top layer: ${render} presenting every frame (a page each), ${RECEIVERS - render} counting without decoding (${counting.length} pages)`);
    await sleep(5_000); // warm-up: the layers settle, the receivers reach the top one
    const stats = async () => (await Promise.all(pages.map((page) => call<VideoStats[]>(page, 'videoStats')))).flat();
    const countedNow = async () => Object.assign({}, ...(await Promise.all(counting.map((page) => call<Record<string, Counted>>(page, 'counted'))))) as Record<string, Counted>;
    await Promise.all(presenting.map((page) => call(page, 'resetMeasures')));
    const sentBefore = await call<number>(publisher, 'sent');
    const layersBefore = await call<SentLayer[]>(publisher, 'sentLayers');
    const [statsBefore, countedBefore] = [await stats(), await countedNow()];
    const cpuNow = async () => Promise.all([cpuSeconds(await sfu.pid()), browserCpu(presentBrowser), browserCpu(countBrowser), browserCpu(publisherBrowser)]);
    const cpuBefore = await cpuNow();
    const started = Date.now();
    await sleep(SECONDS * 1000);
    const seconds = (Date.now() - started) / 1000;
    const cpuAfter = await cpuNow();
    const [sfuCpu, presentCpu, countCpu, publisherCpu] = cpuAfter.map((after, i) => (after - cpuBefore[i]!) / seconds) as [number, number, number, number];
    const sentFrames = (await call<number>(publisher, 'sent')) - sentBefore;
    const layersAfter = await call<SentLayer[]>(publisher, 'sentLayers');
    const [statsAfter, countedAfter] = [await stats(), await countedNow()];
    const measured = (await Promise.all(presenting.map((page) => call<Presented[]>(page, 'measures')))).flat();

    const samples = measured.flatMap((m) => m.samples).sort((a, b) => a - b);
    console.log(
      `glass-to-glass (${samples.length} frames presented by ${measured.length} receivers): p50 ${ms(percentile(samples, 50))}, p95 ${ms(percentile(samples, 95))}, p99 ${ms(percentile(samples, 99))}, max ${ms(samples.at(-1) ?? Number.NaN)} (target p99 < 400 ms)`,
    );
    for (const m of measured) {
      const span = m.first === null || m.last === null ? 0 : m.last - m.first + 1;
      console.log(`  presenting receiver: ${m.presented} of the ${span} frames in its window presented (${span - m.presented} never shown), ${m.misread} frames unreadable`);
    }
    const sentLayers = layersAfter.map((after) => {
      const before = layersBefore.find((layer) => layer.rid === after.rid);
      const sentInWindow = after.framesSent - (before?.framesSent ?? 0);
      const keyFrames = after.keyFrames - (before?.keyFrames ?? 0);
      const plis = after.plis - (before?.plis ?? 0);
      return `${after.frameHeight}p ${(sentInWindow / seconds).toFixed(1)} fps, ${keyFrames} key frames for ${plis} PLIs${after.limit === 'none' ? '' : ` (limited by ${after.limit})`}`;
    });
    console.log(`sharer's layers: ${sentLayers.join('; ')}`);
    const lost = statsAfter.map((after, i) => after.packetsLost - (statsBefore[i]?.packetsLost ?? 0));
    const presentedReceived = statsAfter.slice(0, render).map((after, i) => after.framesReceived - (statsBefore[i]?.framesReceived ?? 0));
    const countedFrames = Object.entries(countedAfter).map(([name, after]) => after.frames - (countedBefore[name]?.frames ?? 0)).sort((a, b) => a - b);
    const countedMbps = Object.entries(countedAfter).map(([name, after]) => ((after.bytes - (countedBefore[name]?.bytes ?? 0)) * 8) / seconds / 1e6);
    const topSent = Math.max(0, ...layersAfter.map((after) => after.framesSent - (layersBefore.find((layer) => layer.rid === after.rid)?.framesSent ?? 0)));
    console.log(
      `frames: ${sentFrames} drawn, ${topSent} sent on the top layer in ${seconds.toFixed(1)} s; received per counting receiver: min ${countedFrames[0] ?? 'n/a'}, median ${percentile(countedFrames, 50)}, max ${countedFrames.at(-1) ?? 'n/a'} (${(countedMbps.reduce((a, b) => a + b, 0) / Math.max(1, countedMbps.length)).toFixed(2)} Mbit/s each); per presenting receiver: ${presentedReceived.join(', ')}; packets lost in all: ${lost.reduce((a, b) => a + b, 0)}`,
    );
    console.log(`SFU CPU: ${(sfuCpu * 100).toFixed(1)} % of a core, ${((sfuCpu * 100) / RECEIVERS).toFixed(2)} % per receiver`);
    console.log(
      `a presenting receiver's Chromium (decoding and showing 1080p): ${((presentCpu * 100) / Math.max(1, render)).toFixed(0)} % of a core; a counting receiver's: ${((countCpu * 100) / Math.max(1, RECEIVERS - render)).toFixed(1)} %; the sharer's (drawing, encoding three layers): ${(publisherCpu * 100).toFixed(0)} %`,
    );
  } finally {
    await Promise.allSettled([publisherBrowser.close(), presentBrowser.close(), countBrowser.close()]);
  }
}

async function voice(sfu: LiveKit, pageUrl: string): Promise<void> {
  const room = `voice-${randomBytes(3).toString('hex')}`;
  const browser = await launch();
  try {
    const pages: Page[] = [];
    for (let i = 0; i < Math.ceil(MEMBERS / PER_PAGE); i++) pages.push(await openPage(browser, pageUrl));
    const pageOf = (member: number): Page => pages[Math.floor(member / PER_PAGE)]!;
    const join = async (member: number, others: number): Promise<number> =>
      call<number>(pageOf(member), 'speakAndHear', {
        url: sfu.wsUrl,
        iceServers: sfu.iceServers,
        token: await token(`m${member}`, room, true),
        name: `m${member}`,
        tone: 220 + member * 40,
        others,
        giveUpMs: 10_000,
      });
    // The room fills one member at a time: each join is timed to hearing all who are already in.
    const joins: number[] = [];
    for (let member = 0; member < MEMBERS; member++) {
      const took = await join(member, member).catch((error: unknown) => {
        throw new Error(`member ${member + 1} of ${MEMBERS} (page ${Math.floor(member / PER_PAGE) + 1}): ${String(error)}`);
      });
      if (member > 0) joins.push(took);
      console.log(`  member ${member + 1} heard the ${member} before it in ${ms(took)}`);
    }
    // Then the last member leaves and joins again, to time joins into the full room.
    for (let again = 0; again < 10; again++) {
      await call(pageOf(MEMBERS - 1), 'leave', `m${MEMBERS - 1}`);
      const took = await join(MEMBERS - 1, MEMBERS - 1);
      joins.push(took);
      console.log(`  member ${MEMBERS} joined again and heard the ${MEMBERS - 1} others in ${ms(took)}`, JSON.stringify(await pageOf(MEMBERS - 1).evaluate('window.lastJoin')));
    }
    const sorted = [...joins].sort((a, b) => a - b);
    console.log(`voice: ${MEMBERS} members, ${joins.length} joins timed from the start of the join to hearing every other member`);
    console.log(`join to hearing: p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? Number.NaN)} (target p99 < 1.5 s)`);
    const [before, browserBefore] = [await cpuSeconds(await sfu.pid()), await browserCpu(browser)];
    const started = Date.now();
    await sleep(SECONDS * 1000);
    const [sfuCpu, browserUsed] = [(await cpuSeconds(await sfu.pid())) - before, (await browserCpu(browser)) - browserBefore];
    const seconds = (Date.now() - started) / 1000;
    console.log(`SFU CPU with all ${MEMBERS} talking: ${((sfuCpu / seconds) * 100).toFixed(1)} % of a core, ${((sfuCpu / seconds / MEMBERS) * 100).toFixed(2)} % per member`);
    console.log(`the members' Chromium (each sending its tone, receiving every voice, playing none): ${((browserUsed / seconds / MEMBERS) * 100).toFixed(1)} % of a core per member`);
  } finally {
    await browser.close();
  }
}

const which = process.argv[2] ?? 'all';
const sfu = await startLiveKit();
const page = await servePage();
try {
  if (which === 'all' || which === 'screen') await screen(sfu, page.url);
  if (which === 'all' || which === 'voice') await voice(sfu, page.url);
} finally {
  await page.close();
  await sfu.stop();
}
