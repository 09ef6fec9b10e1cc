/**
 * The parts of node-media-server 4 this service drives, typed. We use its RTMP protocol
 * session (handshake, chunking, AMF commands) and its BroadcastServer (FLV tag building, the
 * cached metadata, sequence headers and GOP that let a new viewer start at once), not its
 * `NodeMediaServer` class: that one cannot refuse a publish after an asynchronous check (its
 * `prePublish` is a synchronous event whose listeners cannot veto; closing the socket from it
 * still registers the publisher), holds a stream open 30 s after its publisher leaves (a
 * reconnect grace that would delay "offline"), and opens a JSON store and an HTTP server of
 * its own. See docs/2026-11-23-livestreams.md.
 */
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

const require = createRequire(import.meta.url);

/** One media packet as the RTMP parser hands it over: its bytes are `data[0, size)`. */
export interface AvPacket {
  size: number;
  data: Buffer;
  /** FLV tag type: 8 audio, 9 video, 18 script. */
  codec_type?: number;
  /** 0 audio header, 1 keyframe, 2 video header, 3 inter frame, 5 metadata, ... (node-media-server's). */
  flags?: number;
}

export interface NmsRtmpProtocol {
  onConnectCallback: (req: { app: string; name: string; host: string; query: Record<string, unknown> }) => void;
  onPlayCallback: () => void;
  onPushCallback: () => void;
  onPacketCallback: (packet: AvPacket) => void;
}

export interface NmsRtmpSession {
  readonly id: string;
  readonly socket: Socket;
  readonly rtmp: NmsRtmpProtocol;
  run(): void;
}

/** What BroadcastServer sends to: we implement it for HTTP responses and ffmpeg's stdin. */
export interface NmsSubscriber {
  id: string;
  /** '' marks an internal session: no play events, no auth. */
  ip: string;
  protocol: 'flv';
  streamPath: string;
  sendBuffer(buffer: Buffer): void;
  close(): void;
}

export interface NmsBroadcast {
  broadcastMessage(packet: AvPacket): void;
  /** Sends the FLV header, metadata, sequence headers and the GOP cache, then live tags. */
  postPlay(session: NmsSubscriber): string | null;
  donePlay(session: NmsSubscriber): void;
  readonly subscribers: Map<string, NmsSubscriber>;
}

/** node-media-server's FLV reader: bytes in, one packet per tag out (its `data` reused for the next tag). */
export interface NmsFlvParser {
  onPacketCallback: (packet: AvPacket) => void;
  /** Feeds bytes; an error sentence when the stream is not FLV. */
  parserData(buffer: Buffer): string | null;
}

interface Logger {
  level: string;
}

const RtmpSession = require('node-media-server/src/session/rtmp_session.js') as new (socket: Socket) => NmsRtmpSession;
const BroadcastServer = require('node-media-server/src/server/broadcast_server.js') as new (streamPath: string) => NmsBroadcast;
const Flv = require('node-media-server/src/protocol/flv.js') as new () => NmsFlvParser;
const nmsLogger = require('node-media-server/src/core/logger.js') as Logger;
// Its logger prints every session to stdout; ours logs what matters.
nmsLogger.level = 'error';

export function newRtmpSession(socket: Socket): NmsRtmpSession {
  return new RtmpSession(socket);
}

/**
 * A copy of `packet` that owns its bytes. The parser hands every packet over with `data` set to
 * its own buffer for that chunk stream, which the next message on the stream overwrites (the
 * BroadcastServer copies at once). A packet kept past the callback, queued while a publish is
 * checked, must be copied: kept as it came, the stream's metadata later held the bytes of an audio
 * frame and no player could read the start of the stream.
 */
export function ownedPacket(packet: AvPacket): AvPacket {
  return { ...packet, data: Buffer.from(packet.data.subarray(0, packet.size)) };
}

export function newBroadcast(streamPath: string): NmsBroadcast {
  return new BroadcastServer(streamPath);
}

/** An FLV reader handing each tag to `onPacket` as the packet a publish would bring (pulled streams). */
export function newFlvParser(onPacket: (packet: AvPacket) => void): NmsFlvParser {
  const parser = new Flv();
  parser.onPacketCallback = onPacket;
  return parser;
}
