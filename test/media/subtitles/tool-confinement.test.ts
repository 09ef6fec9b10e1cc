/**
 * ffprobe and ffmpeg cannot be aimed (issue 38, finding 2): listing a proxied item's embedded
 * subtitles runs the media tools on the service's own proxy URL, and the proxy passes the
 * upstream's bytes through. An upstream that answers a file URL with an HLS playlist, a DASH
 * manifest, an ffconcat script, an m3u list or an SDP description must not make a tool fetch
 * what they name: a listener named by every one of them records any request and must receive
 * none. What a tool printed on stderr never reaches the caller.
 */
import test from 'ava';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { addItem, createRoom, startMediaBed } from '../media-bed.js';

let bed: GatewayBed;
let owner: Member;
let recorder: Server;
let upstream: Server;
/** Every request the recorder received, as `METHOD path`. */
const recorded: string[] = [];
/** Reads of the upstream's `/switch/` file after the test armed it: the first sees a Matroska header, later ones a playlist. */
let switchReads = -1;

const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04]);

function payloads(target: string): Record<string, { type: string; body: string }> {
  return {
    hls: { type: 'application/vnd.apple.mpegurl', body: `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${target}/hls-segment.ts\n#EXT-X-ENDLIST\n` },
    'hls-octets': { type: 'application/octet-stream', body: `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${target}/hls-octets-segment.ts\n#EXT-X-ENDLIST\n` },
    dash: {
      type: 'application/dash+xml',
      body: `<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="PT10S"><Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="1000"><BaseURL>${target}/dash-segment.mp4</BaseURL></Representation></AdaptationSet></Period></MPD>`,
    },
    ffconcat: { type: 'text/plain', body: `ffconcat version 1.0\nfile ${target}/concat-segment.mkv\n` },
    m3u: { type: 'audio/x-mpegurl', body: `#EXTM3U\n#EXTINF:10,one\n${target}/m3u-entry.mp3\n` },
    sdp: { type: 'application/sdp', body: `v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\na=control:${target}/sdp-control\nm=video 0 RTP/AVP 96\n` },
  };
}

const listening = async (server: Server): Promise<string> => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

test.before(async () => {
  recorder = createServer((req: IncomingMessage, res) => {
    recorded.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'video/mp2t' }).end('recorded');
  });
  const target = await listening(recorder);
  const bodies = payloads(target);
  upstream = createServer((req, res) => {
    const kind = (req.url ?? '').split('/')[1] ?? '';
    if (kind === 'switch') {
      // The add's seek probe reads before the test arms the switch; it gets the header too.
      const read = switchReads === -1 ? 0 : switchReads++;
      if (read === 0) res.writeHead(200, { 'content-type': 'video/x-matroska', 'content-length': EBML.length }).end(EBML);
      else res.writeHead(200, { 'content-type': bodies.hls!.type }).end(bodies.hls!.body);
      return;
    }
    const payload = bodies[kind];
    if (!payload) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': payload.type, 'content-length': Buffer.byteLength(payload.body) }).end(payload.body);
  });
  await listening(upstream);
  bed = await startMediaBed('tool-confinement');
  owner = await bed.signUp('owner');
});
test.after.always(async () => {
  await bed?.close();
  upstream?.closeAllConnections();
  recorder?.closeAllConnections();
  await Promise.all([upstream, recorder].map((server) => server && new Promise((resolve) => server.close(resolve))));
});

interface ErrorBody {
  code: string;
  message: string;
}

const upstreamUrl = (kind: string) => `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/${kind}/movie.mkv`;

for (const kind of ['hls', 'hls-octets', 'dash', 'ffconcat', 'm3u', 'sdp']) {
  test.serial(`a proxied "file" that is really ${kind} makes no tool fetch what it names`, async (t) => {
    const roomId = await createRoom(bed, owner);
    const mediaId = await addItem(bed, roomId, owner, { url: upstreamUrl(kind), proxy: true });
    recorded.length = 0;
    const listed = await bed.call<{ tracks: unknown[] } & ErrorBody>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/subtitles`, undefined, owner.token);
    const extracted = await bed.call<ErrorBody>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/subtitles/e0`, undefined, owner.token);
    // The tools have exited before either answer: anything they fetched has arrived by now.
    t.deepEqual(recorded, [], 'nothing the upstream named was fetched');
    t.is(listed.status, 200, JSON.stringify(listed.body));
    t.deepEqual(listed.body.tracks, [], 'not a media file: no embedded tracks');
    t.is(extracted.status, 404, JSON.stringify(extracted.body));
  });
}

test.serial('a file that says Matroska first and is a playlist when the tool reads it is read as Matroska, and the tool\'s own words stay in the log', async (t) => {
  const roomId = await createRoom(bed, owner);
  const mediaId = await addItem(bed, roomId, owner, { url: upstreamUrl('switch'), proxy: true });
  recorded.length = 0;
  switchReads = 0;
  const listed = await bed.call<ErrorBody>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/subtitles`, undefined, owner.token);
  t.deepEqual(recorded, [], 'the playlist read second was not followed');
  t.true(switchReads >= 2, `the file was read as it changed (${switchReads} reads)`);
  t.is(listed.status, 502, JSON.stringify(listed.body));
  t.is(listed.body.code, 'bad_gateway');
  t.regex(listed.body.message, /streams could not be read/);
  // ffprobe names the URL it read (a signed proxy link) and its demuxer's complaint: neither is the caller's to see.
  t.notRegex(listed.body.message, /https?:|media\/proxy|EBML|Invalid data|matroska @/i);
});
