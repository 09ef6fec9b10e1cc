/**
 * One of this browser's two connections to the room's SFU (docs/2026-11-29-call-and-stage-client.md):
 * the stage (`stage`: the screens shown, for every member) or the call (`call`: voices and
 * cameras, for members with use_webrtc). They are two LiveKit rooms because LiveKit grants
 * receiving whole: a connection receives everything in its room. A link fetches its grant
 * (`joinCall` with its part), connects with the grant's TURN servers (relay-only where
 * ice-policy.ts says so), receives every track (autoSubscribe; adaptive streams pick the layer
 * for the element's size), plays the voices it receives, and joins again with a new grant when it
 * loses its server (rejoin.ts). What to publish, and when to be connected, is RoomCall's.
 */
import { signal } from '@preact/signals';
import { ConnectionState, Room, RoomEvent, Track, type Participant, type RemoteTrack } from 'livekit-client';
import type { RoomSession } from '../state/room.js';
import { api, call } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { Schemas } from '../api/types.js';
import { iceTransportPolicy } from '../voice/ice-policy.js';
import {
  afterDisconnect,
  gone,
  noteFlow,
  OWN_RESUME_MS,
  ownReconnectDelayMs,
  REJOIN_ATTEMPTS,
  rejoinDelayMs,
  rejoinTimeoutMs,
  type AfterDisconnect,
  type Flow,
} from './rejoin.js';

export type CallGrant = Schemas['CallGrant'];
export type SfuPart = CallGrant['part'];
/** The connection to the SFU: `rejoining` after it lost its server, with a new grant. */
export type Connection = 'idle' | 'connecting' | 'connected' | 'rejoining';

/** How often the views re-read a connected link's state (see open). */
const REFRESH_MS = 1000;
/** How often a connected link reads whether its received tracks still flow (rejoin.ts SILENCE_LOST_MS). */
const FLOW_CHECK_MS = 500;

/** What the views show that LiveKit may change silently: who is in the room and which of their tracks are muted. */
function shownState(room: Room): string {
  const shown: string[] = [];
  for (const participant of [room.localParticipant, ...room.remoteParticipants.values()]) {
    for (const publication of participant.trackPublications.values()) shown.push(`${participant.identity}/${publication.trackSid}:${publication.isMuted ? 'muted' : 'on'}`);
  }
  return shown.join(' ');
}

export interface LinkHooks {
  /** Every grant fetched (the first answers whether the room has an SFU). */
  granted(grant: CallGrant): void;
  /** Something the views read changed. */
  changed(): void;
  /** More of a fresh LiveKit room's events (announcements, a moderator's mute). */
  wire?(room: Room): void;
  /** The link lost its room without leaving it; `next` says why. Before any rejoin. */
  lost(next: AfterDisconnect): void;
  /** Whether the link is still wanted after it lost its server (someone still shares; still in the call). */
  wanted(): boolean;
  /** After a rejoin: send again what went out before. Says its own failures; never rejects. */
  rejoined(): Promise<void>;
  /** A rejoin gave up (`error`: the service's final refusal, else the SFU stayed out of reach). */
  gaveUp(error: unknown): void;
  /** A rejoin is under way (true) or over (false). */
  rejoining(on: boolean): void;
}

export class SfuLink {
  readonly connection = signal<Connection>('idle');
  /** The browser blocked this link's sound until a click (autoplay policy). */
  readonly soundBlocked = signal(false);
  room: Room | null = null;
  grant: CallGrant | null = null;
  private readonly audio = new Map<string, HTMLMediaElement[]>();
  private connecting: Promise<void> | null = null;
  private refresh: ReturnType<typeof setInterval> | null = null;
  private flowCheck: ReturnType<typeof setInterval> | null = null;
  private readonly flows = new Map<string, Flow>();
  private resumeTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;

  constructor(
    private readonly session: RoomSession,
    readonly part: SfuPart,
    private readonly hooks: LinkHooks,
  ) {}

  fetchGrant(): Promise<CallGrant> {
    return call(api.POST('/api/rooms/{roomId}/call', { params: { path: { roomId: this.session.roomId } }, body: { part: this.part } })).then((grant) => {
      this.grant = grant;
      this.hooks.granted(grant);
      return grant;
    });
  }

  /** Connects once, however many callers ask at the same time. `joinTimeoutMs`: give the join up after this long (rejoin.ts). */
  connect(joinTimeoutMs?: number): Promise<void> {
    if (this.room && !this.connecting) return Promise.resolve();
    this.connecting ??= this.open(joinTimeoutMs).finally(() => (this.connecting = null));
    return this.connecting;
  }

  get connected(): boolean {
    return this.room?.state === ConnectionState.Connected;
  }

  /** The participants connected to this link's room, this browser first. */
  participants(): Participant[] {
    const room = this.room;
    if (!room || room.state !== ConnectionState.Connected) return [];
    return [room.localParticipant, ...room.remoteParticipants.values()];
  }

  /** Lets the link's sound play after the browser blocked it (a click calls this). */
  async playSound(): Promise<void> {
    await this.room?.startAudio().catch(() => undefined);
    this.soundBlocked.value = !(this.room?.canPlaybackAudio ?? true);
  }

  async disconnect(): Promise<void> {
    this.stopRefresh();
    const room = this.room;
    this.room = null;
    this.connection.value = 'idle';
    this.soundBlocked.value = false;
    if (room) {
      room.removeAllListeners();
      await room.disconnect().catch(() => undefined);
    }
    this.detachAllAudio();
    this.hooks.changed();
  }

  dispose(): void {
    this.disposed = true;
    void this.disconnect();
  }

  private async open(joinTimeoutMs?: number): Promise<void> {
    this.connection.value = this.connection.value === 'rejoining' ? 'rejoining' : 'connecting';
    let grant: CallGrant;
    try {
      grant = await this.fetchGrant();
    } catch (error) {
      if (this.connection.value === 'connecting') this.connection.value = 'idle';
      throw error;
    }
    const room = new Room({
      adaptiveStream: true,
      dynacast: true,
      stopLocalTrackOnUnpublish: true,
      disconnectOnPageLeave: true,
      reconnectPolicy: { nextRetryDelayInMs: ({ retryCount, elapsedMs }) => ownReconnectDelayMs(retryCount, elapsedMs) },
    });
    this.room = room;
    this.wire(room);
    try {
      await room.connect(grant.url, grant.token, {
        autoSubscribe: true,
        ...(joinTimeoutMs !== undefined ? { websocketTimeout: joinTimeoutMs, maxRetries: 0 } : {}),
        rtcConfig: { iceServers: grant.iceServers, iceTransportPolicy: iceTransportPolicy() },
      });
    } catch (error) {
      room.removeAllListeners();
      this.room = null;
      if (this.connection.value === 'connecting') this.connection.value = 'idle';
      throw error;
    }
    if (this.disposed) {
      await room.disconnect();
      return;
    }
    this.connection.value = 'connected';
    // LiveKit changes some state without an event: a moderator's mute reaches the others as the
    // publication's metadata, and when the remote track had already gone quiet (no packets) it
    // emits nothing. The views read state from the room, so it is looked at once a second too,
    // and they are redrawn when what they show of it changed (redrawing twelve tiles every second
    // in every page of a call cost more than the call's own work on a small machine).
    let shown = shownState(room);
    this.refresh ??= setInterval(() => {
      const now = shownState(room);
      if (now === shown) return;
      shown = now;
      this.hooks.changed();
    }, REFRESH_MS);
    this.flows.clear();
    this.flowCheck ??= setInterval(() => void this.checkFlow(room), FLOW_CHECK_MS);
    this.soundBlocked.value = !room.canPlaybackAudio;
    this.hooks.changed();
  }

  private wire(room: Room): void {
    const changed = () => this.hooks.changed();
    for (const event of [
      RoomEvent.ParticipantConnected,
      RoomEvent.TrackPublished,
      RoomEvent.TrackUnpublished,
      RoomEvent.TrackSubscribed,
      RoomEvent.TrackUnsubscribed,
      RoomEvent.TrackMuted,
      RoomEvent.TrackUnmuted,
      RoomEvent.ActiveSpeakersChanged,
      RoomEvent.LocalTrackPublished,
      RoomEvent.LocalTrackUnpublished,
      RoomEvent.ParticipantNameChanged,
      RoomEvent.ParticipantPermissionsChanged,
    ] as const) {
      room.on(event, changed);
    }
    room.on(RoomEvent.ParticipantDisconnected, (participant) => {
      this.detachAudio(participant.identity);
      changed();
    });
    room.on(RoomEvent.TrackSubscribed, (track, _publication, participant) => this.onSubscribed(track, participant.identity));
    room.on(RoomEvent.TrackUnsubscribed, (track) => {
      for (const element of track.detach()) element.remove();
    });
    room.on(RoomEvent.AudioPlaybackStatusChanged, () => (this.soundBlocked.value = !room.canPlaybackAudio));
    room.on(RoomEvent.Disconnected, (reason) => void this.lose(room, afterDisconnect(reason)));
    room.on(RoomEvent.Reconnecting, () => this.onResuming(room));
    room.on(RoomEvent.SignalReconnecting, () => this.onResuming(room));
    room.on(RoomEvent.Reconnected, () => {
      if (this.resumeTimer) clearTimeout(this.resumeTimer);
      this.resumeTimer = null;
      this.flows.clear();
    });
    this.hooks.wire?.(room);
  }

  private onSubscribed(track: RemoteTrack, identity: string): void {
    if (track.kind === Track.Kind.Audio) {
      const element = track.attach();
      const list = this.audio.get(identity) ?? [];
      list.push(element);
      this.audio.set(identity, list);
    }
    this.hooks.changed();
  }

  private detachAudio(identity: string): void {
    for (const element of this.audio.get(identity) ?? []) {
      element.pause();
      element.srcObject = null;
      element.remove();
    }
    this.audio.delete(identity);
  }

  private detachAllAudio(): void {
    for (const identity of [...this.audio.keys()]) this.detachAudio(identity);
  }

  private stopRefresh(): void {
    if (this.refresh) clearInterval(this.refresh);
    if (this.flowCheck) clearInterval(this.flowCheck);
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.refresh = this.flowCheck = this.resumeTimer = null;
    this.flows.clear();
  }

  /** Gives the room up as lost when every voice it receives (not muted) has gone quiet (rejoin.ts). */
  private async checkFlow(room: Room): Promise<void> {
    if (room !== this.room || room.state !== ConnectionState.Connected) return;
    const now = performance.now();
    const live: Flow[] = [];
    for (const participant of room.remoteParticipants.values()) {
      for (const publication of participant.trackPublications.values()) {
        const track = publication.track;
        const receiver = track?.receiver;
        // Only sound the SFU should be sending now (not muted, not paused): a voice sends at least
        // every 400 ms, silent or not. Video is left out: a still screen sends no frames at all.
        if (publication.kind !== Track.Kind.Audio || !publication.isSubscribed || publication.isMuted || track?.streamState !== Track.StreamState.Active || !receiver) continue;
        let packets = 0;
        (await receiver.getStats()).forEach((report: RTCStats) => {
          if (report.type === 'inbound-rtp') packets += (report as RTCInboundRtpStreamStats).packetsReceived ?? 0;
        });
        const flow = noteFlow(this.flows.get(publication.trackSid), packets, now);
        this.flows.set(publication.trackSid, flow);
        live.push(flow);
      }
    }
    if (room === this.room && gone(live, now)) void this.lose(room, 'rejoin');
  }

  /** LiveKit tries to resume by itself; a resume that has not come back soon is given up for a new join. */
  private onResuming(room: Room): void {
    if (this.resumeTimer) return;
    this.resumeTimer = setTimeout(() => {
      this.resumeTimer = null;
      if (room === this.room && room.state !== ConnectionState.Connected) void this.lose(room, 'rejoin');
    }, OWN_RESUME_MS);
  }

  /** The room ended without us leaving (or we gave it up as lost): join again with a new grant, or say why not. */
  private async lose(room: Room, next: AfterDisconnect): Promise<void> {
    if (room !== this.room) return;
    this.room = null;
    this.stopRefresh();
    room.removeAllListeners();
    // Given up while LiveKit still tries: its own attempts end here (no event: the listeners are gone).
    if (room.state !== ConnectionState.Disconnected) void room.disconnect().catch(() => undefined);
    this.detachAllAudio();
    this.hooks.lost(next);
    this.hooks.changed();
    if (next !== 'rejoin' || this.disposed) {
      this.connection.value = 'idle';
      return;
    }
    await this.rejoin();
  }

  private async rejoin(): Promise<void> {
    this.connection.value = 'rejoining';
    this.hooks.rejoining(true);
    let refusal: unknown = null;
    for (let attempt = 0; attempt < REJOIN_ATTEMPTS && !this.disposed; attempt += 1) {
      const delay = rejoinDelayMs(attempt);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      if (this.disposed || this.room) return;
      if (!this.hooks.wanted()) {
        this.connection.value = 'idle';
        this.hooks.rejoining(false);
        return;
      }
      try {
        this.connection.value = 'rejoining';
        await this.connect(rejoinTimeoutMs(attempt));
      } catch (error) {
        // A refusal from the service (no longer a member, no use_webrtc) is final.
        if (error instanceof ApiError && error.code !== 'unavailable' && error.code !== 'busy' && error.status < 500) {
          refusal = error;
          break;
        }
        continue;
      }
      // Back in the room whatever the hook manages to send again: retrying the join here would
      // find the room already set and end with the notice up for good.
      try {
        await this.hooks.rejoined();
      } finally {
        this.hooks.rejoining(false);
      }
      return;
    }
    this.connection.value = 'idle';
    this.hooks.gaveUp(refusal);
  }
}
