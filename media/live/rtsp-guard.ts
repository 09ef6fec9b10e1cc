/**
 * ffmpeg's RTSP client follows a server's redirect (a 3xx reply) to any host it names, on its
 * own, before anyone could check that host's address: a source at an allowed address could
 * send the pull to a camera on the operator's network and stream it into a room. So ffmpeg
 * never talks to an RTSP source directly: it connects to this guard on loopback, the guard
 * connects to the checked address, and passes the bytes on both ways, reading the source's
 * replies (text messages, each with its Content-Length body) until the stream's interleaved
 * data starts (a `$` frame: redirects come only before). A 3xx reply is never passed on: both
 * connections are closed and `redirected` resolves, so the pull ends with a sentence of ours.
 * A reply whose head or body is longer than any RTSP reply is not one: closed as well.
 *
 * RTSP over TLS (rtsps) cannot be read this way and is not pulled (contracts/room/pull-source.ts).
 */
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

const MAX_HEADER_BYTES = 64 * 1024;
/** An SDP or parameter body is a few KiB; a reply claiming more is not one we wait for. */
const MAX_BODY_BYTES = 1024 * 1024;
const REDIRECT = /^RTSP\/\d\.\d 3\d\d/;

export interface RtspGuard {
  /** Where ffmpeg connects: 127.0.0.1 and this port. */
  port: number;
  /** Resolves when the source answered with a redirect (the connections are closed by then). */
  redirected: Promise<void>;
  close(): void;
}

/** A guard in front of the RTSP source at `address` (checked) and `port`, for one connection. */
export async function openRtspGuard(address: string, port: number): Promise<RtspGuard> {
  const sockets: Socket[] = [];
  let redirect: () => void = () => undefined;
  const redirected = new Promise<void>((resolve) => (redirect = resolve));
  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    // One connection: ffmpeg's, interleaved over TCP. Another is not ours to serve.
    server.close();
    const source = connect({ host: address, port });
    sockets.push(client, source);
    const closeBoth = () => {
      client.destroy();
      source.destroy();
    };
    client.on('error', closeBoth).on('close', closeBoth);
    source.on('error', closeBoth).on('close', closeBoth);
    source.once('connect', () => {
      client.pipe(source);
      client.resume();
    });
    const replies = new ReplyReader((bytes) => client.write(bytes), () => {
      closeBoth();
      redirect();
    });
    source.on('data', (chunk: Buffer) => replies.push(chunk));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port: local } = server.address() as AddressInfo;
  return {
    port: local,
    redirected,
    close: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** Reads the source's side: whole replies are checked then passed on, until the data starts. */
class ReplyReader {
  private pending = Buffer.alloc(0);
  private data = false;

  constructor(
    private readonly pass: (bytes: Buffer) => void,
    private readonly refuse: () => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.data) return this.pass(chunk);
    this.pending = Buffer.concat([this.pending, chunk]);
    for (;;) {
      if (this.pending.length === 0) return;
      if (this.pending[0] === 0x24) {
        // `$`: interleaved media from here on.
        this.data = true;
        this.pass(this.pending);
        this.pending = Buffer.alloc(0);
        return;
      }
      const end = this.pending.indexOf('\r\n\r\n');
      if (end === -1) {
        if (this.pending.length > MAX_HEADER_BYTES) this.refuse();
        return;
      }
      const head = this.pending.subarray(0, end).toString('latin1');
      if (REDIRECT.test(head)) return this.refuse();
      const length = Number(/^content-length:\s*(\d+)\s*$/im.exec(head)?.[1] ?? 0);
      if (length > MAX_BODY_BYTES) return this.refuse();
      const total = end + 4 + length;
      if (this.pending.length < total) return;
      this.pass(this.pending.subarray(0, total));
      this.pending = this.pending.subarray(total);
    }
  }
}
