/**
 * A server-to-client text message framed once and written as the same bytes to every socket.
 *
 * Server frames are not masked (RFC 6455 §5.1), so an event's whole frame, header and payload,
 * is identical on every socket of a process. `ws.send` frames the payload again for each socket
 * and hands the kernel two buffers (a writev); at a room of a thousand members that per-socket
 * work was most of the gateway's fan-out time (docs/2026-11-30-fan-out.md). A frame written here
 * goes to the socket as one buffer, in order with everything `ws` writes, because `ws` (with
 * permessage-deflate off, as this gateway runs it) writes each frame synchronously too.
 *
 * The frames written to one socket in one turn go to the kernel in one write: the socket is
 * corked at its first frame and uncorked when the turn ends. When a busy gateway reads many
 * events from NATS at once (a crowd's chat, a burst of reactions), a socket gets them in one
 * system call rather than one each, and an idle gateway sends exactly as before
 * (docs/2026-11-30-crowds.md).
 */
import type WebSocket from 'ws';

export interface SharedFrame {
  /** The message's UTF-8 JSON: sent through `ws` when the frame cannot be written as it is. */
  payload: Buffer;
  /** The whole WebSocket frame: FIN, text opcode, the payload length, the payload. */
  wire: Buffer;
}

/** FIN and the text opcode (RFC 6455 §5.2). */
const FINAL_TEXT = 0x81;

export function sharedTextFrame(payload: Buffer): SharedFrame {
  const length = payload.length;
  // The payload length in 7 bits, or 126 and 16 bits, or 127 and 64 bits; never masked.
  const header = length < 126 ? 2 : length < 0x10000 ? 4 : 10;
  const wire = Buffer.allocUnsafe(header + length);
  wire[0] = FINAL_TEXT;
  if (header === 2) wire[1] = length;
  else if (header === 4) {
    wire[1] = 126;
    wire.writeUInt16BE(length, 2);
  } else {
    wire[1] = 127;
    wire.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(wire, header);
  return { payload, wire };
}

interface RawSocket {
  write(chunk: Buffer): boolean;
  cork(): void;
  uncork(): void;
  writable: boolean;
}

/** The parts of `ws`'s socket this writes through; not in its types. */
interface WsInternals {
  _socket?: RawSocket;
  /** 0 (DEFAULT) unless a frame is waiting on compression or a Blob's bytes; then it queues. */
  _sender?: { _state?: number };
}

/** The sockets corked in this turn; uncorked together when it ends. */
const corked = new Set<RawSocket>();

function uncorkAll(): void {
  const sockets = [...corked];
  corked.clear();
  for (const socket of sockets) socket.uncork();
}

/** Sends `frame` on `ws` (which must be open): its bytes when `ws` has nothing queued, else through `ws`. */
export function sendShared(ws: WebSocket, frame: SharedFrame): void {
  const internals = ws as unknown as WsInternals;
  const socket = internals._socket;
  if (!socket?.writable || internals._sender?._state !== 0) {
    ws.send(frame.payload, { binary: false });
    return;
  }
  // Corked writes keep their order with what `ws` writes meanwhile: both queue on the socket.
  if (!corked.has(socket)) {
    if (corked.size === 0) process.nextTick(uncorkAll);
    corked.add(socket);
    socket.cork();
  }
  socket.write(frame.wire);
}
