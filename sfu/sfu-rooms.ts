/**
 * LiveKit's room API as this service uses it: make a room's call with its participant cap, read
 * who is in it, change what one may publish, remove one, mute one's microphone. Every request
 * has a deadline, and LiveKit's failures come back as AppError: an SFU that cannot be reached
 * is `unavailable` with a sentence naming it; a participant or room that is not there is an
 * answer (undefined, false), not an error, because the service often acts on someone who has
 * already left the call.
 */
import type { ParticipantInfo, ParticipantPermission, RoomServiceClient } from 'livekit-server-sdk';
import type { CallSource } from '../contracts/room/model.js';
import { AppError } from '../errors/index.js';
import type { SfuConfig } from './sfu-config.js';
import { livekit } from './livekit.js';
import { callSourceOf, trackSourceOf } from './sources.js';

/** Seconds a room API request may take; LiveKit answers in milliseconds when it is up. */
export const SFU_REQUEST_TIMEOUT_S = 3;

/** A participant of a call as the service reads it. */
export interface CallParticipant {
  identity: string;
  /** What they may publish now. */
  sources: CallSource[];
  attributes: Record<string, string>;
  /** The track id of their published microphone, if any. */
  microphoneTrack: string | undefined;
}

export class SfuRooms {
  /** Made at the first request (the SDK is loaded then, livekit.ts). */
  private client: Promise<RoomServiceClient> | undefined;
  private readonly where: string;

  constructor(
    private readonly sfu: Pick<SfuConfig, 'url' | 'apiKey' | 'apiSecret'>,
    private readonly timeoutSeconds = SFU_REQUEST_TIMEOUT_S,
  ) {
    this.where = hostOf(sfu.url);
  }

  private roomService(): Promise<RoomServiceClient> {
    // No failover: that is LiveKit Cloud's region discovery, which a self-hosted server has not.
    return (this.client ??= livekit().then(({ RoomServiceClient }) => new RoomServiceClient(this.sfu.url, this.sfu.apiKey, this.sfu.apiSecret, { requestTimeout: this.timeoutSeconds, failover: false })));
  }

  /** Makes the call's room if it is not there yet, with its participant cap (LiveKit keeps an existing room as it is). */
  async ensureRoom(name: string, maxParticipants: number): Promise<void> {
    // departureTimeout: a room whose last participant dropped for a moment is still there when they come back.
    await this.call('open the call', async () => (await this.roomService()).createRoom({ name, maxParticipants, emptyTimeout: 300, departureTimeout: 20 }));
  }

  /** Ends the call for everyone in it; nothing when it is not there. */
  async deleteRoom(name: string): Promise<void> {
    await this.call('close the call', async () => (await this.roomService()).deleteRoom(name), undefined);
  }

  /** The names of the calls running now. */
  async roomNames(): Promise<string[]> {
    const rooms = await this.call('list the calls', async () => (await this.roomService()).listRooms());
    return rooms.map((room) => room.name);
  }

  /** Who is in the call; none when the room is not there. */
  async participants(room: string): Promise<CallParticipant[]> {
    const list = await this.call('list the call', async () => (await this.roomService()).listParticipants(room), []);
    return list.map(participantOf);
  }

  async participant(room: string, identity: string): Promise<CallParticipant | undefined> {
    const info = await this.call('read a participant', async () => (await this.roomService()).getParticipant(room, identity), undefined);
    return info && participantOf(info);
  }

  /** Sets what `identity` may publish (LiveKit unpublishes a track whose source is taken away); false when they are not in the call. */
  async setSources(room: string, identity: string, sources: readonly CallSource[]): Promise<boolean> {
    // LiveKit replaces the permission whole, so every field is given.
    const permission: Partial<ParticipantPermission> = {
      canSubscribe: true,
      canPublish: sources.length > 0,
      canPublishSources: sources.map(trackSourceOf),
      canPublishData: false,
      canUpdateMetadata: false,
    };
    const done = await this.call('change what a participant may send', async () => (await this.roomService()).updateParticipant(room, identity, { permission }), undefined);
    return done !== undefined;
  }

  /** Takes `identity` out of the call; false when they were not in it. */
  async remove(room: string, identity: string): Promise<boolean> {
    const done = await this.call('remove a participant', async () => (await (await this.roomService()).removeParticipant(room, identity), true), false);
    return done;
  }

  /** Mutes `identity`'s published microphone; false when they have none in the call. */
  async muteMicrophone(room: string, identity: string): Promise<boolean> {
    const participant = await this.participant(room, identity);
    const track = participant?.microphoneTrack;
    if (track === undefined) return false;
    const done = await this.call('mute a microphone', async () => (await this.roomService()).mutePublishedTrack(room, identity, track, true), undefined);
    return done !== undefined;
  }

  /**
   * Runs one request; LiveKit's not-found is `missing` when given (the call or participant is
   * gone), anything else an AppError naming what could not be done.
   */
  private async call<T, M = never>(what: string, request: () => Promise<T>, ...missing: [M] | []): Promise<T | M> {
    try {
      return await request();
    } catch (err) {
      const { TwirpError } = await livekit();
      if (err instanceof TwirpError) {
        if (err.status === 404 && missing.length > 0) return missing[0] as M;
        if (err.status === 401 || err.status === 403) {
          throw new AppError('internal', `the SFU at ${this.where} refused this service's API key (sfu.api_key, sfu.api_secret) when asked to ${what}`, [], { cause: err });
        }
        if (err.status >= 500) throw new AppError('unavailable', `the SFU at ${this.where} failed to ${what}: ${err.message}`, [], { cause: err });
        throw new AppError('bad_gateway', `the SFU at ${this.where} refused to ${what}: ${err.message}`, [], { cause: err });
      }
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new AppError(
        'unavailable',
        timedOut ? `the SFU at ${this.where} did not answer within ${this.timeoutSeconds} s (asked to ${what}); try again shortly` : `the SFU at ${this.where} cannot be reached (asked to ${what}); try again shortly`,
        [],
        { cause: err },
      );
    }
  }
}

function participantOf(info: ParticipantInfo): CallParticipant {
  const sources = (info.permission?.canPublish ?? false) ? (info.permission?.canPublishSources ?? []).map(callSourceOf).filter((s): s is CallSource => s !== undefined) : [];
  const microphone = info.tracks.find((track) => callSourceOf(track.source) === 'microphone');
  return { identity: info.identity, sources, attributes: { ...info.attributes }, microphoneTrack: microphone?.sid };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'sfu.url';
  }
}
