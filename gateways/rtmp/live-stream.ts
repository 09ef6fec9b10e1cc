/**
 * One live stream published to this replica: the FLV fan-out (node-media-server's
 * BroadcastServer, which keeps the metadata, sequence headers and last GOP so a viewer who
 * arrives late starts on a keyframe at once), the HLS transmuxer fed from it, and the HTTP-FLV
 * viewers attached to it.
 */
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { StreamTarget } from '../../media/index.js';
import type { HlsTransmuxer } from './hls-transmuxer.js';
import { newBroadcast, type AvPacket, type NmsBroadcast, type NmsSubscriber } from './nms.js';

/** An HTTP-FLV viewer this far behind is cut off rather than buffered without bound. */
const MAX_VIEWER_BACKLOG_BYTES = 8 * 1024 * 1024;

export class LiveStream {
  readonly broadcast: NmsBroadcast;
  readonly startedAt = Date.now();
  private readonly viewers = new Set<NmsSubscriber>();
  private ended = false;

  constructor(
    readonly target: StreamTarget,
    /** The key it was published with: rotating the item's key ends the stream. */
    readonly streamKey: string,
    readonly hls: HlsTransmuxer,
  ) {
    this.broadcast = newBroadcast(`/live/${target.roomId}/${target.mediaId}`);
    this.subscribe((chunk) => hls.write(chunk), () => undefined);
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  push(packet: AvPacket): void {
    if (!this.ended) this.broadcast.broadcastMessage(packet);
  }

  /**
   * Streams the FLV (header, metadata, sequence headers, GOP cache, then live tags) into
   * `out` until the stream ends (then `out` is ended) or `detach` is called.
   */
  attach(out: Writable): () => void {
    let detached = false;
    const subscriber = this.subscribe(
      (chunk) => {
        if (out.writableLength > MAX_VIEWER_BACKLOG_BYTES) {
          out.destroy(new Error('the viewer is too far behind the live stream'));
          return;
        }
        out.write(chunk);
      },
      () => out.end(),
    );
    const detach = (): void => {
      if (detached) return;
      detached = true;
      this.viewers.delete(subscriber);
      this.broadcast.donePlay(subscriber);
    };
    this.viewers.add(subscriber);
    out.once('close', detach);
    return detach;
  }

  /** Ends every viewer; the caller stops the transmuxer. */
  end(): void {
    this.ended = true;
    for (const viewer of [...this.viewers]) viewer.close();
    this.viewers.clear();
  }

  private subscribe(send: (chunk: Buffer) => void, close: () => void): NmsSubscriber {
    const subscriber: NmsSubscriber = {
      id: randomUUID(),
      ip: '',
      protocol: 'flv',
      streamPath: `/live/${this.target.roomId}/${this.target.mediaId}`,
      sendBuffer: send,
      close,
    };
    this.broadcast.postPlay(subscriber);
    return subscriber;
  }
}
