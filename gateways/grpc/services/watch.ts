/**
 * RoomService.WatchRoom over the shared room watch (`gateways/rooms/room-watch.ts`): the first
 * message is a snapshot, or on resume a `resumed` marker followed by exactly the missed events;
 * then live events in seq order, filtered to what the member may see; a fresh snapshot whenever
 * the gateway may have missed events; and `ended` (then status OK) when the member leaves, is
 * kicked, banned or rejected, or the room is deleted. When the caller's session ends (sign-out,
 * ban, password change: gateways/session-connections.ts) the call fails with UNAUTHENTICATED
 * (PERMISSION_DENIED for a ban). Cancelling the call closes the watch and tells the room this
 * connection is gone.
 */
import { randomUUID } from 'node:crypto';
import type * as grpc from '@grpc/grpc-js';
import { AppError } from '../../../errors/index.js';
import type { RoomWatcher, WatchEndReason } from '../../rooms/room-watch.js';
import type { Caller } from '../../../accounts/index.js';
import type { ConnectionCap } from '../../connection-cap.js';
import type { SessionConnections } from '../../session-connections.js';
import type { GrpcCalls } from '../call.js';
import type { RoomServiceHandlers } from '../gen/svc/v1/RoomService.js';
import type { WatchEndReason__Output } from '../gen/svc/v1/WatchEndReason.js';
import type { WatchRoomRequest__Output } from '../gen/svc/v1/WatchRoomRequest.js';
import type { WatchRoomResponse } from '../gen/svc/v1/WatchRoomResponse.js';
import { checkRoomId } from '../../rooms/command-entry.js';
import { memberRoomView, roomEvent } from '../views.js';

const END_REASON = {
  left: 'WATCH_END_REASON_LEFT',
  kicked: 'WATCH_END_REASON_KICKED',
  banned: 'WATCH_END_REASON_BANNED',
  rejected: 'WATCH_END_REASON_REJECTED',
  room_deleted: 'WATCH_END_REASON_ROOM_DELETED',
} as const satisfies Record<WatchEndReason, WatchEndReason__Output>;

/**
 * A client that reads slower than its room produces is cut off rather than buffered without
 * bound (it resumes with after_seq, or gets a snapshot). A whole snapshot is at most ~1 MiB.
 */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export function watchRoom(calls: GrpcCalls, watcher: RoomWatcher, connections: SessionConnections, cap: ConnectionCap): RoomServiceHandlers['WatchRoom'] {
  return calls.serverStream<WatchRoomRequest__Output, WatchRoomResponse>(async (call, ctx) => {
    const { roomId, afterSeq } = call.request;
    checkRoomId(roomId);
    // RESOURCE_EXHAUSTED (limit_exceeded) past the user's cap, before the room is asked.
    const releaseSlot = cap.reserve(ctx.caller);
    try {
      await watchUntilDone(call, ctx.caller, watcher, connections, roomId, afterSeq);
    } finally {
      releaseSlot();
    }
  });
}

async function watchUntilDone(
  call: grpc.ServerWritableStream<WatchRoomRequest__Output, WatchRoomResponse>,
  caller: Caller,
  watcher: RoomWatcher,
  connections: SessionConnections,
  roomId: string,
  afterSeq: number | undefined,
): Promise<void> {
  const watch = await watcher.open({
    roomId,
    caller,
    connectionId: `grpc-${randomUUID()}`,
    ...(afterSeq !== undefined ? { resumeFrom: afterSeq } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    let done = false;
    let release = (): void => undefined;
    const finish = (err?: Error): void => {
      if (done) return;
      done = true;
      release();
      void watch.close();
      if (err) reject(err);
      else resolve();
    };
    const write = (message: WatchRoomResponse): void => {
      if (done) return;
      call.write(message);
      if (call.writableLength > MAX_BUFFERED_BYTES) {
        finish(new AppError('limit_exceeded', 'the client reads the room events too slowly; watch again with after_seq'));
      }
    };
    // A session that ends ends the stream: UNAUTHENTICATED, or PERMISSION_DENIED for a ban.
    release = connections.hold(caller, (ending) => finish(new AppError(ending.code, ending.message)));
    call.once('cancelled', () => finish());
    call.once('close', () => finish());
    call.once('error', (err: grpc.ServiceError) => finish(err));

    // Voice events have no gRPC form (voice is a WebSocket feature): they are skipped.
    const writeEvent = (entry: { event: Parameters<typeof roomEvent>[0]; seq: number; at: number }): void => {
      const event = roomEvent(entry.event, entry.seq, entry.at);
      if (event) write({ event });
    };
    const { start } = watch;
    if (start.kind === 'snapshot') {
      write({ snapshot: memberRoomView(start.snapshot) });
    } else {
      write({ resumed: { fromSeq: start.fromSeq, seq: start.seq } });
      for (const entry of start.events) writeEvent(entry);
    }
    watch.begin({
      event: (entry) => writeEvent(entry),
      snapshot: (view) => write({ snapshot: memberRoomView(view) }),
      ended: (reason, message) => {
        write({ ended: { reason: END_REASON[reason], message } });
        finish();
      },
    });
  });
}
