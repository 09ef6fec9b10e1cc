/**
 * What the bench:sfu pages run (bench/sfu.ts serves this file and livekit-client's own bundle
 * to Debian's Chromium). Plain JavaScript: the pages load it as it is.
 *
 * A publisher draws a synthetic screen on a canvas and shares it as a screen_share track: the
 * top row carries a pixel code, 32 blocks of the sender's clock (Date.now() in ms, low 32 bits)
 * then 16 of the frame number, each a 40 px black or white square. A receiver that renders
 * reads the row back on every frame it presents (requestVideoFrameCallback) and records
 * glass-to-glass: the frame's presentation time minus the clock it carries. Every page of the
 * bench runs in one machine, so the clocks agree. The other receivers count: each takes the
 * top layer from the SFU like a presenting one, but reads its frames from an encoded stream
 * (encodedInsertableStreams) and never hands them on, so none reaches a decoder: one machine
 * holds thirty receivers without decoding thirty 1080p streams on two cores (thirty viewers
 * bring thirty machines). What the SFU sends, and what it costs the SFU, is the same; their
 * decoders, starved, ask for a key frame about once a second, which the bench reports.
 */
import { AudioPresets, LocalAudioTrack, LocalVideoTrack, Room, RoomEvent, Track, VideoPreset, VideoQuality } from '/livekit-client.mjs';

const BLOCK = 40;
const CLOCK_BITS = 32;
const FRAME_BITS = 16;

/** The rooms this page holds, by name, for stats and leaving. */
const rooms = new Map();

// ---- the shared screen -------------------------------------------------------------------

let sentFrames = 0;

/** Shares a width x height canvas at fps as screen_share, within kbps, with simulcast layers. */
export async function publishScreen({ url, iceServers, token, width, height, fps, plan, codec }) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  const draw = () => {
    const frame = sentFrames++;
    // Moving content, so the encoder has real work, as a screen with a video in it has.
    context.fillStyle = `hsl(${(frame * 7) % 360} 45% 35%)`;
    context.fillRect(0, BLOCK, width, height - BLOCK);
    context.fillStyle = '#fff';
    context.font = '160px sans-serif';
    context.fillText(`frame ${frame}`, 120 + ((frame * 13) % 600), 420);
    const clock = Date.now() >>> 0;
    for (let bit = 0; bit < CLOCK_BITS; bit++) square(context, bit, (clock >>> (CLOCK_BITS - 1 - bit)) & 1);
    for (let bit = 0; bit < FRAME_BITS; bit++) square(context, CLOCK_BITS + bit, (frame >>> (FRAME_BITS - 1 - bit)) & 1);
  };
  draw();
  setInterval(draw, 1000 / fps);
  const [mediaTrack] = canvas.captureStream(fps).getVideoTracks();
  const room = await join('publisher', url, iceServers, token, { adaptiveStream: false, dynacast: true });
  // The layers the web client sends (web/src/call/budget.ts, given by bench/sfu.ts as `plan`).
  const encoding = (layer) => ({ maxBitrate: layer.maxBitrate, maxFramerate: layer.maxFramerate });
  await room.localParticipant.publishTrack(new LocalVideoTrack(mediaTrack), {
    source: Track.Source.ScreenShare,
    videoCodec: codec,
    simulcast: plan.lower.length > 0,
    screenShareEncoding: encoding(plan.top),
    screenShareSimulcastLayers: plan.lower.map((layer) => new VideoPreset(layer.width, layer.height, layer.maxBitrate, layer.maxFramerate)),
  });
  return { width, height, fps };
}

function square(context, index, bit) {
  context.fillStyle = bit ? '#fff' : '#000';
  context.fillRect(index * BLOCK, 0, BLOCK, BLOCK);
}

export function sent() {
  return sentFrames;
}

/** The sharer's encoded layers: frames sent, the height and rate of each, and what limits it. */
export async function sentLayers() {
  const room = rooms.get('publisher');
  const layers = [];
  for (const publication of room.localParticipant.videoTrackPublications.values()) {
    const sender = publication.track?.sender;
    if (!sender) continue;
    for (const report of (await sender.getStats()).values()) {
      if (report.type !== 'outbound-rtp') continue;
      layers.push({
        rid: report.rid ?? '',
        framesSent: report.framesSent ?? 0,
        frameHeight: report.frameHeight ?? 0,
        limit: report.qualityLimitationReason ?? 'none',
        keyFrames: report.keyFramesEncoded ?? 0,
        plis: report.pliCount ?? 0,
      });
    }
  }
  return layers;
}

// ---- receivers -----------------------------------------------------------------------------

/** Per rendering receiver: glass-to-glass samples (ms) and the frame numbers it presented. */
const measured = new Map();

/**
 * Joins one receiver per token, each taking the top layer. `present`: each attaches the screen
 * to a <video> and reads the code of every frame it presents; else each counts the encoded
 * frames it receives and decodes none (see the head of this file).
 */
export async function receive({ url, iceServers, tokens, present }) {
  await Promise.all(
    tokens.map(async ({ name, token }) => {
      // A counting receiver's frames go to an encoded stream it reads and never writes back: none reaches a decoder.
      const room = await join(name, url, iceServers, token, { adaptiveStream: false, dynacast: false }, present ? {} : { encodedInsertableStreams: true });
      const onTrack = (track, publication) => {
        if (track.kind !== Track.Kind.Video) return;
        publication.setVideoQuality(VideoQuality.HIGH);
        if (present) watch(name, track);
        else count(name, track);
      };
      room.on(RoomEvent.TrackSubscribed, onTrack);
      for (const participant of room.remoteParticipants.values()) {
        for (const publication of participant.trackPublications.values()) if (publication.track) onTrack(publication.track, publication);
      }
    }),
  );
}

/** What each counting receiver took in, by name: its encoded frames, counted and kept from the decoder. */
const totals = {};

function count(name, track) {
  const total = (totals[name] ??= { frames: 0, bytes: 0, keyFrames: 0 });
  // The receivers' connections are made with encodedInsertableStreams (receive()): every frame passes here first.
  const reader = track.receiver.createEncodedStreams().readable.getReader();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      total.frames++;
      total.bytes += value.data.byteLength;
      if (value.type === 'key') total.keyFrames++;
    }
  })();
}

/** What each counting receiver of this page got: { name: { frames, bytes, keyFrames } }. */
export function counted() {
  return structuredClone(totals);
}

function watch(name, track) {
  const video = track.attach();
  video.muted = true;
  video.style.width = '320px';
  document.body.append(video);
  const strip = document.createElement('canvas');
  strip.width = CLOCK_BITS * BLOCK + FRAME_BITS * BLOCK;
  strip.height = BLOCK;
  const context = strip.getContext('2d', { willReadFrequently: true });
  const record = { samples: [], frames: new Set(), misread: 0 };
  measured.set(name, record);
  const onFrame = (_now, metadata) => {
    video.requestVideoFrameCallback(onFrame);
    if (video.videoWidth !== strip.width) {
      record.misread++;
      return; // a lower layer: the code's blocks are not where they were drawn
    }
    context.drawImage(video, 0, 0, strip.width, BLOCK, 0, 0, strip.width, BLOCK);
    const row = context.getImageData(0, BLOCK / 2, strip.width, 1).data;
    const bitAt = (index) => (row[(index * BLOCK + BLOCK / 2) * 4] > 127 ? 1 : 0);
    let clock = 0;
    for (let bit = 0; bit < CLOCK_BITS; bit++) clock = ((clock << 1) | bitAt(bit)) >>> 0;
    let frame = 0;
    for (let bit = 0; bit < FRAME_BITS; bit++) frame = (frame << 1) | bitAt(CLOCK_BITS + bit);
    const glass = (Math.round(performance.timeOrigin + metadata.presentationTime) >>> 0) - clock;
    const latency = glass < 0 ? glass + 2 ** 32 : glass;
    if (latency > 60_000) {
      record.misread++;
      return;
    }
    record.samples.push(latency);
    record.frames.add(frame);
  };
  video.requestVideoFrameCallback(onFrame);
  void video.play();
}

/** Forgets what was measured so far (the warm-up). */
export function resetMeasures() {
  for (const record of measured.values()) {
    record.samples = [];
    record.frames = new Set();
    record.misread = 0;
  }
}

export function measures() {
  return [...measured].map(([name, record]) => {
    const frames = [...record.frames].sort((a, b) => a - b);
    return { name, samples: record.samples, presented: frames.length, first: frames[0] ?? null, last: frames.at(-1) ?? null, misread: record.misread };
  });
}

/** Each receiver's inbound video: frames received, decoded and dropped, packets lost. */
export async function videoStats() {
  const out = [];
  for (const [name, room] of rooms) {
    if (name === 'publisher') continue;
    const totals = { name, framesReceived: 0, framesDecoded: 0, framesDropped: 0, packetsLost: 0, frameHeight: 0 };
    for (const participant of room.remoteParticipants.values()) {
      for (const publication of participant.videoTrackPublications.values()) {
        const receiver = publication.track?.receiver;
        if (!receiver) continue;
        for (const report of (await receiver.getStats()).values()) {
          if (report.type !== 'inbound-rtp') continue;
          totals.framesReceived += report.framesReceived ?? 0;
          totals.framesDecoded += report.framesDecoded ?? 0;
          totals.framesDropped += report.framesDropped ?? 0;
          totals.packetsLost += report.packetsLost ?? 0;
          totals.frameHeight = Math.max(totals.frameHeight, report.frameHeight ?? 0);
        }
      }
    }
    out.push(totals);
  }
  return out;
}

// ---- voice ---------------------------------------------------------------------------------

/**
 * Joins a member who speaks (a tone of its own) and hears: resolves with ms from the start of
 * the join to the moment every one of `others` is heard (audio energy above the floor on their
 * track), or rejects after `giveUpMs`. Once timed, the member stops playing what it receives:
 * Chromium decodes a remote voice only while something plays it, and sixteen members each
 * decoding fifteen voices would be sixteen machines' work on this one's two cores. The SFU still
 * sends every voice to every member.
 */
/** Each member's tone, stopped when it leaves. */
const tones = new Map();

/** One AudioContext per page for every member in it: each context is a real-time audio thread of its own. */
let sharedAudio = null;
async function audioContext() {
  sharedAudio ??= new AudioContext();
  await sharedAudio.resume();
  return sharedAudio;
}

export async function speakAndHear({ url, iceServers, token, name, tone, others, giveUpMs }) {
  const started = performance.now();
  const audio = await audioContext();
  const oscillator = audio.createOscillator();
  oscillator.frequency.value = tone;
  const destination = audio.createMediaStreamDestination();
  oscillator.connect(destination);
  oscillator.start();
  tones.set(name, oscillator);
  const heard = new Set();
  const subscribedAt = [];
  /** What plays the received voices while this member is timed: stopped once it is. */
  const playing = [];
  let timed = false;
  let done;
  const all = new Promise((resolve) => (done = resolve));
  const room = new Room({ adaptiveStream: false, dynacast: false });
  rooms.set(name, room);
  room.on(RoomEvent.TrackSubscribed, (track, _publication, participant) => {
    if (track.kind !== Track.Kind.Audio || timed) return;
    subscribedAt.push(performance.now() - started);
    const analyser = audio.createAnalyser();
    const source = audio.createMediaStreamSource(new MediaStream([track.mediaStreamTrack]));
    source.connect(analyser);
    const levels = new Float32Array(analyser.fftSize);
    const listen = () => {
      analyser.getFloatTimeDomainData(levels);
      let peak = 0;
      for (const level of levels) peak = Math.max(peak, Math.abs(level));
      if (peak > 0.05) {
        heard.add(participant.identity);
        if (heard.size >= others) done(performance.now() - started);
        return;
      }
      setTimeout(listen, 5);
    };
    // Chromium plays a remote WebRTC track into Web Audio only while an element plays it too.
    const element = track.attach();
    element.volume = 0.01;
    document.body.append(element);
    playing.push({ track, element, source });
    listen();
  });
  await room.connect(url, token, { autoSubscribe: true, rtcConfig: { iceServers } });
  const connectedMs = performance.now() - started;
  await room.localParticipant.publishTrack(new LocalAudioTrack(destination.stream.getAudioTracks()[0]), {
    source: Track.Source.Microphone,
    audioPreset: AudioPresets.speech,
    dtx: false,
  });
  const stopPlaying = () => {
    timed = true;
    for (const { track, element, source } of playing.splice(0)) {
      source.disconnect();
      track.detach(element);
      element.remove();
    }
  };
  if (others === 0) {
    stopPlaying();
    return 0;
  }
  try {
    const took = await Promise.race([all, new Promise((_, reject) => setTimeout(() => reject(new Error(`heard ${heard.size} of ${others} in ${giveUpMs} ms`)), giveUpMs))]);
    window.lastJoin = { connectedMs, firstSubscribedMs: subscribedAt[0], lastSubscribedMs: subscribedAt.at(-1), took };
    return took;
  } finally {
    stopPlaying();
  }
}

// ---- common --------------------------------------------------------------------------------

async function join(name, url, iceServers, token, options, rtcConfig = {}) {
  const room = new Room(options);
  rooms.set(name, room);
  await room.connect(url, token, { autoSubscribe: true, rtcConfig: { iceServers, ...rtcConfig } });
  return room;
}

export async function leave(name) {
  const room = rooms.get(name);
  rooms.delete(name);
  tones.get(name)?.stop();
  tones.delete(name);
  await room?.disconnect();
}
