import test from 'ava';
import { RealtimeClient, requestTicket } from '../harness/ws-client.js';
import { CLOSE } from '../../contracts/ws/constants.js';
import { withDeadline } from '../fixtures/deadline.js';
import { watchParty } from '../deploy/watch-party.js';
import { BED_PASSWORD } from '../gateways/bed.js';
import { createRootIn, logsOf, podman, podmanOk, requireImages, SVC_IMAGE } from './podman.js';
import { roleDeployment, startRole, type Role, type RunningRole } from './role-container.js';


interface ImageConfig {
  User: string;
  Entrypoint: string[];
  Cmd: string[];
}

test('the image runs as a non-root user under tini, with a health check, ffmpeg and no build tools', async (t) => {
  await requireImages();
  const [inspected] = JSON.parse(await podmanOk(['image', 'inspect', SVC_IMAGE])) as Array<{ Config: ImageConfig; Size: number; Healthcheck?: { Test: string[] } }>;
  t.is(inspected!.Config.User, '10001:10001');
  t.deepEqual(inspected!.Config.Entrypoint, ['/usr/bin/tini', '--', 'svc']);
  t.deepEqual(inspected!.Config.Cmd, ['serve']);
  t.deepEqual(inspected!.Healthcheck?.Test, ['CMD', 'node', '/usr/local/bin/healthcheck.mjs']);
  t.log(`image size: ${(inspected!.Size / 1e6).toFixed(0)} MB`);

  const look = await podman([
    'run', '--rm', '--entrypoint', 'sh', SVC_IMAGE, '-c',
    'id -u; ffmpeg -hide_banner -version | head -n 1; ls /app/node_modules/typescript /app/node_modules/ava /app/dist/test /app/node_modules/webpack/lib /app/node_modules/@swc/core-linux-x64-gnu /var/cache/apt/archives/*.deb /usr/bin/cc /usr/include/libavcodec 2>&1 | grep -c "No such file"; svc --version',
  ]);
  t.is(look.code, 0, look.stderr);
  const [uid, ffmpeg, missing, version] = look.stdout.trim().split('\n');
  t.is(uid, '10001');
  t.regex(ffmpeg ?? '', /^ffmpeg version \S+\+svc /, "the image's own ffmpeg build (deploy/image/build-ffmpeg.sh)");
  t.is(missing, '8', "no TypeScript, no test runner, no compiled tests, no workflow bundler, no downloaded packages, no compiler nor ffmpeg's headers in the image");
  t.regex(version ?? '', /\d+\.\d+\.\d+/);

  // The desktop player's command needs the web client's modules, which the image leaves out.
  const watch = await podman(['run', '--rm', SVC_IMAGE, 'watch', 'http://127.0.0.1:1/rooms/r1', '--guest', 'Sam']);
  t.not(watch.code, 0);
  t.regex(watch.stderr, /svc watch is not part of this installation/);
});

// What svc asks of ffmpeg beyond its own codecs (media/transcode, media/live): the image's ffmpeg
// is built with only these outside libraries (deploy/image/build-ffmpeg.sh).
const FFMPEG_NEEDS = [
  ['encoder', 'libx264'], ['encoder', 'aac'], ['encoder', 'h264_vaapi'], ['encoder', 'h264_qsv'], ['encoder', 'h264_nvenc'],
  ['decoder', 'libdav1d'], ['decoder', 'hevc'], ['decoder', 'vp9'],
  ['filter', 'zscale'], ['filter', 'tonemap'], ['filter', 'overlay'], ['filter', 'hwupload'],
  ['demuxer', 'dash'], ['demuxer', 'rtsp'], ['demuxer', 'hls'], ['muxer', 'hls'], ['muxer', 'webvtt'],
] as const;
const FFMPEG_PROTOCOLS = ['https', 'tls', 'rtmps', 'srt'];

// The image leaves out what a server never loads (ffmpeg's outside libraries svc does not use,
// other platforms' native builds): what svc runs must still work.
test("the image's ffmpeg encodes and segments what the transcoder and the live path make, ffprobe reads it, and sharp draws", async (t) => {
  await requireImages();
  const made = await podman([
    'run', '--rm', '--entrypoint', 'sh', '--workdir', '/app', SVC_IMAGE, '-c',
    [
      'cd /tmp',
      // `-h <kind>=<name>` names an unknown one "Unknown <kind>" and prints no heading.
      `for need in ${FFMPEG_NEEDS.map(([kind, name]) => `${kind}=${name}`).join(' ')}; do ffmpeg -hide_banner -h "$need" 2>&1 | grep -qi "^\${need%%=*} \${need#*=}" || echo "missing $need"; done`,
      `ffmpeg -hide_banner -protocols > protocols.txt; for protocol in ${FFMPEG_PROTOCOLS.join(' ')}; do grep -qx "  $protocol" protocols.txt || echo "missing protocol $protocol"; done`,
      'ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc2=size=320x180:rate=25 -f lavfi -i sine=frequency=440 -t 2 -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -f hls -hls_time 1 -hls_segment_type fmp4 out.m3u8',
      'ffprobe -v error -show_entries stream=codec_name -of csv=p=0 out.m3u8 | sort -u | tr "\\n" " "; echo',
      'cd /app',
      `node -e "import('sharp').then((m) => m.default({ create: { width: 4, height: 4, channels: 3, background: 'red' } }).webp().toBuffer()).then((b) => console.log('sharp webp', b.length > 0))"`,
    ].join(' && '),
  ]);
  t.is(made.code, 0, made.stderr);
  const lines = made.stdout.trim().split('\n');
  t.deepEqual(lines.filter((line) => line.startsWith('missing ')), [], 'every encoder, decoder, filter, format and protocol svc uses');
  const [codecs, sharp] = lines.filter((line) => !line.startsWith('missing '));
  t.is(codecs?.trim(), 'aac h264');
  t.is(sharp, 'sharp webp true');
});

// Each role in its own container (host network, on the test stack), as an operator runs them:
// ready, a watch party through them, then SIGTERM through tini drains (sockets told to come back,
// rooms handed off) and the containers exit 0.
test('each role starts in its container, serves a watch party, and drains on SIGTERM', async (t) => {
  t.timeout(8 * 60_000);
  await requireImages();
  const deployment = await roleDeployment('image_roles');
  const running: Partial<Record<Role, RunningRole>> = {};
  t.teardown(async () => {
    await podman(['rm', '--force', '--time', '5', ...Object.values(running).map((role) => role.name)]);
  });
  for (const role of ['worker', 'actors', 'gateway'] as const) {
    const started = await startRole(deployment, role);
    running[role] = started;
    t.log(`${role}: container start to ready in ${(started.readyMs / 1000).toFixed(2)} s`);
    t.is((await podman(['healthcheck', 'run', started.name])).code, 0, `${role} passes the image's HEALTHCHECK`);
  }
  const gateway = running.gateway!;
  const actors = running.actors!;
  // The review workflows were bundled at the image's build, not by webpack at the worker's start.
  t.regex(await logsOf(running.worker!.name, 400), /review workflows read from the image/);

  const created = await createRootIn(gateway.name, 'imagehost');
  t.is(created.code, 0, created.stderr);
  const url = gateway.url;
  const party = await watchParty({ url, username: 'imagehost', password: BED_PASSWORD });
  t.is(party.chatSeenByGuest, 'hello from imagehost');

  // A viewer still watching when the gateway is stopped is told to reconnect elsewhere.
  const guest = (await (await fetch(`${url}/api/auth/guest`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-client': 'native' }, body: JSON.stringify({ displayName: 'Late' }) })).json()) as { accessToken: string };
  await fetch(`${url}/api/rooms/${party.roomId}/join`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${guest.accessToken}` }, body: '{}' });
  const socket = await RealtimeClient.connect({ url, roomId: party.roomId, ticket: await requestTicket(url, party.roomId, guest.accessToken), origin: url, timeoutMs: 20_000 });

  await podmanOk(['stop', '--time', '30', actors.name]);
  t.is((await podmanOk(['inspect', '--format', '{{.State.ExitCode}}', actors.name])).trim(), '0');
  t.regex(await logsOf(actors.name, 400), /actor host drained/);

  await podmanOk(['stop', '--time', '30', gateway.name]);
  const closed = await withDeadline(socket.closed, 30_000, 'the socket to close when its gateway stops');
  t.is(closed.code, CLOSE.serviceRestart);
  t.not(closed.reason, '');
  t.is((await podmanOk(['inspect', '--format', '{{.State.ExitCode}}', gateway.name])).trim(), '0');
});
