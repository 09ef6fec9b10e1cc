/**
 * This browser's part in the room's SFU call (LiveKit, docs/2026-11-29-call-and-stage-client.md):
 * one per room page, shared by the call panel and the stage. It asks the service whether the
 * room has an SFU (`joinCall`; 503 `unavailable`: the room keeps the mesh voice of web/src/voice/),
 * connects with a CallGrant (the grant's TURN servers, relay-only where ice-policy.ts says so),
 * publishes the microphone, camera and screen within the grant's limits (budget.ts), receives
 * what subscriptions.ts says, and joins again with a new grant when the call loses its server
 * (rejoin.ts). It connects without joining the call while a share is on, so every member with
 * use_webrtc sees the stage.
 */
import { effect, signal, untracked } from '@preact/signals';
import {
  ConnectionState,
  createLocalScreenTracks,
  LocalAudioTrack,
  LocalVideoTrack,
  Room,
  RoomEvent,
  Track,
  TrackEvent,
  VideoPreset,
  type LocalTrack,
  type Participant,
  type RemoteTrack,
  type RemoteTrackPublication,
} from 'livekit-client';
import type { RoomEvent as RoomViewEvent } from '../state/room-view.js';
import type { RoomSession } from '../state/room.js';
import { api, call } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { Schemas } from '../api/types.js';
import { iceTransportPolicy } from '../voice/ice-policy.js';
import { t } from '../i18n/i18n.js';
import { callBudget, SCREEN_SIZE, type Layer, type VideoPlan } from './budget.js';
import { afterDisconnect, ownReconnectDelayMs, REJOIN_ATTEMPTS, rejoinDelayMs, rejoinTimeoutMs } from './rejoin.js';
import { wantsSource } from './subscriptions.js';

export type CallGrant = Schemas['CallGrant'];
/** `probing`: asking the service; `sfu`: calls go through the SFU; `mesh`: no SFU, the mesh voice; `off`: no call for this member. */
export type CallMode = 'probing' | 'sfu' | 'mesh' | 'off';
/** The connection to the SFU: `rejoining` after it lost its server, with a new grant. */
export type Connection = 'idle' | 'connecting' | 'connected' | 'rejoining';
export type ShareState = 'idle' | 'starting' | 'on';

/** LiveKit's TrackSource number for a screen share (ParticipantPermission.canPublishSources). */
const SOURCE_SCREEN_SHARE = 3;
/** How long a share waits for the SFU to let it publish its screen after the service started it. */
const SHARE_PERMISSION_MS = 10_000;
/** How often the views re-read the call's state while connected (see connect). */
const REFRESH_MS = 1000;

const preset = (layer: Layer) => new VideoPreset(layer.width, layer.height, layer.maxBitrate, layer.maxFramerate);
const encodingOf = (layer: Layer) => ({ maxBitrate: layer.maxBitrate, maxFramerate: layer.maxFramerate });

export class RoomCall {
  readonly mode = signal<CallMode>('probing');
  readonly connection = signal<Connection>('idle');
  /** In the call: the microphone published, every track received. */
  readonly inCall = signal(false);
  /** Between the click on Join and the microphone going out. */
  readonly joining = signal(false);
  readonly muted = signal(false);
  readonly cameraOn = signal(false);
  readonly share = signal<ShareState>('idle');
  /** The browser blocked the call's sound until a click (autoplay policy). */
  readonly soundBlocked = signal(false);
  /** What happened to the call, in words (lost its server, muted by a moderator); empty: nothing to say. */
  readonly notice = signal('');
  readonly error = signal<unknown>(null);
  /** Why a share could not start or stop (the server's refusal: stage full, no permission, SFU full). */
  readonly shareError = signal<unknown>(null);
  /** Joins and leaves, for a polite live region. */
  readonly announcement = signal('');
  /** Bumped on every change of the LiveKit room, so views reading it render again. */
  readonly revision = signal(0);
  /** Why this member may not turn a camera on now, in the server's words (the room's bandwidth is taken); null: they may. */
  readonly cameraRefused = signal<string | null>(null);
  /** May mute others and stop their shares (from the last grant). */
  readonly moderator = signal(false);

  room: Room | null = null;
  private grant: CallGrant | null = null;
  private screenTracks: LocalTrack[] = [];
  private readonly audio = new Map<string, HTMLMediaElement[]>();
  private disposed = false;
  private readonly stops: Array<() => void> = [];

  constructor(private readonly session: RoomSession) {
    this.stops.push(session.onEvent((event) => this.onRoomEvent(event)));
    // Probe once the member's view arrives; connect for the stage while a share is on.
    this.stops.push(
      effect(() => {
        const view = session.view.value;
        if (!view) return;
        const mode = this.mode.value;
        const staged = (view.stage ?? []).length > 0;
        // What these start reads signals of its own; the effect follows the view and the mode only.
        untracked(() => {
          if (mode === 'probing' && !this.probing) this.probe();
          if (mode === 'sfu') this.followStage(staged);
        });
      }),
    );
  }

  private probing = false;

  private get me(): string | undefined {
    return this.session.view.value?.me.userId;
  }

  /** Whether the room's calls go through an SFU: a first grant answers it. */
  private probe(): void {
    // Every member may watch the stage; what one may publish is in the grant's sources.
    this.probing = true;
    this.fetchGrant().then(
      (grant) => {
        this.useGrant(grant);
        this.mode.value = 'sfu';
      },
      (error: unknown) => {
        // Refused: this member has no call. Anything else (no SFU: `unavailable`; a server that
        // predates the endpoint; a failure) leaves the room its mesh voice, which needs no SFU.
        if (error instanceof ApiError && (error.code === 'forbidden' || error.code === 'unauthenticated')) {
          this.error.value = error;
          this.mode.value = 'off';
        } else this.mode.value = 'mesh';
      },
    );
  }

  private useGrant(grant: CallGrant): void {
    this.grant = grant;
    this.moderator.value = grant.moderator;
    this.cameraRefused.value = grant.sources.includes('camera') ? null : (grant.cameraRefused ?? null);
  }

  private fetchGrant(): Promise<CallGrant> {
    return call(api.POST('/api/rooms/{roomId}/call', { params: { path: { roomId: this.session.roomId } } }));
  }

  /** Connected for the stage while a share is on; gone again once it ends, unless in the call or sharing. */
  private followStage(staged: boolean): void {
    // Peeked, not read: the effect follows the stage alone, not the call's own state (a join
    // between connecting and its microphone going out must not look like "nothing keeps us here").
    if (staged && this.connection.peek() === 'idle') void this.connect().catch((error: unknown) => (this.error.value = error));
    else if (!staged && this.connection.peek() === 'connected') void this.disconnectIfUnused();
  }

  /** Joins the call: connects if needed, publishes the microphone, receives everything. */
  async join(): Promise<void> {
    if (this.inCall.value || this.joining.value) return;
    this.error.value = null;
    this.joining.value = true;
    try {
      await this.connect();
      await this.publishMicrophone();
      // In the call once the microphone is out: from here everything is received.
      this.inCall.value = true;
      this.subscribeAsWanted();
    } catch (error) {
      this.error.value = error;
      await this.leave();
    } finally {
      this.joining.value = false;
    }
  }

  /** Leaves the call; stays connected for the stage while a share is on. */
  async leave(): Promise<void> {
    this.inCall.value = false;
    const room = this.room;
    if (room) {
      for (const source of [Track.Source.Microphone, Track.Source.Camera]) {
        const track = room.localParticipant.getTrackPublication(source)?.track;
        if (track) await room.localParticipant.unpublishTrack(track).catch(() => undefined);
      }
    }
    this.cameraOn.value = false;
    if (!(await this.disconnectIfUnused())) this.subscribeAsWanted();
    this.bump();
  }

  /** Leaves the SFU when nothing keeps this browser there (not in the call, no share on the stage, not sharing); true if it left. */
  private async disconnectIfUnused(): Promise<boolean> {
    if (this.inCall.peek() || this.joining.peek() || this.share.peek() !== 'idle' || (this.session.view.peek()?.stage ?? []).length > 0) return false;
    await this.disconnect();
    return true;
  }

  async setMuted(muted: boolean): Promise<void> {
    this.muted.value = muted;
    const track = this.room?.localParticipant.getTrackPublication(Track.Source.Microphone)?.track;
    if (!track) return;
    try {
      if (muted) await track.mute();
      else await track.unmute();
      if (!muted) this.notice.value = '';
    } catch (error) {
      this.error.value = error;
    }
    this.bump();
  }

  async setCamera(on: boolean): Promise<void> {
    const room = this.room;
    if (!room || !this.grant) return;
    try {
      if (on) {
        const plan = callBudget(this.grant.limits, this.share.value !== 'idle').camera;
        if (!plan) throw new Error(t('call.cameraNoBudget'));
        await room.localParticipant.setCameraEnabled(
          true,
          { resolution: { width: plan.top.width, height: plan.top.height, frameRate: plan.top.maxFramerate } },
          { videoEncoding: encodingOf(plan.top), simulcast: plan.lower.length > 0, videoSimulcastLayers: plan.lower.map(preset) },
        );
        this.cameraOn.value = true;
      } else {
        const track = room.localParticipant.getTrackPublication(Track.Source.Camera)?.track;
        if (track) await room.localParticipant.unpublishTrack(track);
        this.cameraOn.value = false;
      }
    } catch (error) {
      this.error.value = error;
    }
    this.bump();
  }

  /** Lets the call's sound play after the browser blocked it (a click calls this). */
  async playSound(): Promise<void> {
    await this.room?.startAudio().catch(() => undefined);
    this.soundBlocked.value = !(this.room?.canPlaybackAudio ?? true);
  }

  /**
   * Shows this member's screen on the stage. The browser's picker comes first, on the click (it
   * needs the gesture): cancelling it starts nothing. Then, connected to the call, the service
   * starts the share (it may refuse: the stage is full, no permission, the room's bandwidth is
   * taken), the SFU lets us publish the screen (its permission update), and the screen goes out
   * within the share's cap.
   */
  async startShare(keepPlaying: boolean): Promise<void> {
    if (this.share.value !== 'idle' || !this.grant) return;
    this.shareError.value = null;
    const budget = callBudget(this.grant.limits, true);
    let tracks: LocalTrack[];
    try {
      tracks = await createLocalScreenTracks({
        audio: budget.screenAudio > 0,
        resolution: { width: SCREEN_SIZE.width, height: SCREEN_SIZE.height, frameRate: SCREEN_SIZE.fps },
        contentHint: 'detail',
        systemAudio: 'include',
        surfaceSwitching: 'include',
      });
    } catch (error) {
      // The person closed the picker: nothing was started.
      if (error instanceof Error && error.name === 'NotAllowedError') return;
      this.shareError.value = error;
      return;
    }
    this.share.value = 'starting';
    this.screenTracks = tracks;
    try {
      // In the call first: the SFU grants screen_share to a participant it has.
      await this.connect();
      await call(
        api.POST('/api/rooms/{roomId}/stage', {
          params: { path: { roomId: this.session.roomId } },
          body: keepPlaying ? { keepPlaying: true } : {},
        }),
      );
    } catch (error) {
      this.shareError.value = error;
      this.dropScreen();
      await this.disconnectIfUnused();
      return;
    }
    try {
      await this.mayPublishScreen();
      const room = this.room!;
      for (const track of tracks) {
        if (track instanceof LocalVideoTrack) {
          // The browser's own "Stop sharing" ends the capture: end the share everywhere.
          track.once(TrackEvent.Ended, () => void this.stopShare());
          await room.localParticipant.publishTrack(track, {
            source: Track.Source.ScreenShare,
            ...this.screenEncoding(budget.screen),
          });
        } else if (track instanceof LocalAudioTrack) {
          await room.localParticipant.publishTrack(track as LocalTrack, { source: Track.Source.ScreenShareAudio, audioPreset: { maxBitrate: budget.screenAudio }, dtx: false, red: false });
        }
      }
      this.share.value = 'on';
      this.bump();
    } catch (error) {
      this.shareError.value = error;
      await this.stopShare();
    }
  }

  private screenEncoding(plan: VideoPlan | null) {
    if (!plan) return { simulcast: false };
    return { screenShareEncoding: encodingOf(plan.top), simulcast: plan.lower.length > 0, screenShareSimulcastLayers: plan.lower.map(preset) };
  }

  /** Resolves once the SFU lets this participant publish a screen (the service grants it just after starting the share). */
  private mayPublishScreen(): Promise<void> {
    const room = this.room!;
    const allowed = () => {
      const sources = room.localParticipant.permissions?.canPublishSources ?? [];
      return sources.length === 0 || sources.includes(SOURCE_SCREEN_SHARE);
    };
    if (allowed()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        room.off(RoomEvent.ParticipantPermissionsChanged, check);
        reject(new Error(t('call.share.notAllowed')));
      }, SHARE_PERMISSION_MS);
      const check = () => {
        if (!allowed()) return;
        clearTimeout(timer);
        room.off(RoomEvent.ParticipantPermissionsChanged, check);
        resolve();
      };
      room.on(RoomEvent.ParticipantPermissionsChanged, check);
    });
  }

  /** Ends this member's own share: the screen stops going out and the service takes it off the stage. */
  async stopShare(): Promise<void> {
    if (this.share.value === 'idle') return;
    this.dropScreen();
    const me = this.me;
    if (!me) return;
    await this.stopShareOf(me);
  }

  /** Takes a share off the stage (one's own, or anyone's for a moderator). */
  async stopShareOf(userId: string): Promise<void> {
    try {
      await call(api.DELETE('/api/rooms/{roomId}/stage/{userId}', { params: { path: { roomId: this.session.roomId, userId } } }));
    } catch (error) {
      this.shareError.value = error;
    }
  }

  /** A moderator mutes someone's microphone. */
  async muteOther(userId: string): Promise<void> {
    try {
      await call(api.POST('/api/rooms/{roomId}/call/mute', { params: { path: { roomId: this.session.roomId } }, body: { userId } }));
    } catch (error) {
      this.error.value = error;
    }
  }

  /** Leaves the call and the SFU (the room page went away). */
  dispose(): void {
    this.disposed = true;
    for (const stop of this.stops) stop();
    if (this.share.value !== 'idle') void this.stopShare();
    void this.disconnect();
  }

  /** The participants connected to the call, this browser first when connected. */
  participants(): Participant[] {
    void this.revision.value;
    const room = this.room;
    if (!room || room.state !== ConnectionState.Connected) return [];
    return [room.localParticipant, ...room.remoteParticipants.values()];
  }

  /** A participant is in the call (not only watching the stage) when their microphone is published. */
  isInCall(participant: Participant): boolean {
    if (participant === this.room?.localParticipant) return this.inCall.value;
    return participant.getTrackPublication(Track.Source.Microphone) !== undefined;
  }

  private connecting: Promise<void> | null = null;
  private refresh: ReturnType<typeof setInterval> | null = null;

  /** Connects once, however many callers ask at the same time (the stage and a click). */
  private connect(joinTimeoutMs?: number): Promise<void> {
    if (this.room && !this.connecting) return Promise.resolve();
    this.connecting ??= this.open(joinTimeoutMs).finally(() => (this.connecting = null));
    return this.connecting;
  }

  /** `joinTimeoutMs`: give the join up after this long (a rejoin asks again soon; rejoin.ts). */
  private async open(joinTimeoutMs?: number): Promise<void> {
    this.connection.value = this.connection.value === 'rejoining' ? 'rejoining' : 'connecting';
    const grant = await this.fetchGrant();
    this.useGrant(grant);
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
        autoSubscribe: false,
        ...(joinTimeoutMs !== undefined ? { websocketTimeout: joinTimeoutMs, maxRetries: 0 } : {}),
        rtcConfig: { iceServers: grant.iceServers, iceTransportPolicy: iceTransportPolicy() },
      });
    } catch (error) {
      room.removeAllListeners();
      this.room = null;
      this.connection.value = 'idle';
      throw error;
    }
    if (this.disposed) {
      await room.disconnect();
      return;
    }
    this.connection.value = 'connected';
    // LiveKit changes some state without an event: a moderator's mute reaches the others as the
    // publication's metadata, and when the remote track had already gone quiet (no packets) it
    // emits nothing. The views read state from the room, so they are refreshed once a second too.
    // The same tick asks again for any publication whose event was missed (a busy page).
    this.refresh ??= setInterval(() => {
      this.subscribeAsWanted();
      this.bump();
    }, REFRESH_MS);
    this.soundBlocked.value = !room.canPlaybackAudio;
    this.subscribeAsWanted();
    this.bump();
  }

  private async disconnect(): Promise<void> {
    if (this.refresh) clearInterval(this.refresh);
    this.refresh = null;
    const room = this.room;
    this.room = null;
    this.connection.value = 'idle';
    if (room) {
      room.removeAllListeners();
      await room.disconnect().catch(() => undefined);
    }
    this.detachAllAudio();
    this.bump();
  }

  private wire(room: Room): void {
    const bump = () => this.bump();
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
    ] as const) {
      room.on(event, bump);
    }
    room.on(RoomEvent.ParticipantConnected, (participant) => {
      for (const publication of participant.trackPublications.values()) this.subscribeIfWanted(publication);
    });
    room.on(RoomEvent.ParticipantDisconnected, (participant) => {
      if (participant.getTrackPublication(Track.Source.Microphone)) this.announce('call.left', participant);
      this.detachAudio(participant.identity);
      this.bump();
    });
    room.on(RoomEvent.TrackPublished, (publication, participant) => {
      this.subscribeIfWanted(publication);
      if (publication.source === Track.Source.Microphone) this.announce('call.joined', participant);
    });
    room.on(RoomEvent.TrackUnpublished, (publication, participant) => {
      if (publication.source === Track.Source.Microphone) this.announce('call.left', participant);
    });
    room.on(RoomEvent.TrackSubscribed, (track, _publication, participant) => this.onSubscribed(track, participant.identity));
    room.on(RoomEvent.TrackUnsubscribed, (track) => {
      for (const element of track.detach()) element.remove();
    });
    room.on(RoomEvent.TrackMuted, (publication, participant) => {
      // A moderator's mute reaches us as the SFU muting our microphone.
      if (participant === room.localParticipant && publication.source === Track.Source.Microphone) this.muted.value = true;
    });
    room.on(RoomEvent.AudioPlaybackStatusChanged, () => (this.soundBlocked.value = !room.canPlaybackAudio));
    room.on(RoomEvent.Reconnecting, () => (this.notice.value = t('call.reconnecting')));
    room.on(RoomEvent.Reconnected, () => (this.notice.value = ''));
    room.on(RoomEvent.Disconnected, (reason) => void this.onDisconnected(room, reason));
  }

  private announce(key: 'call.joined' | 'call.left', participant: Participant): void {
    this.announcement.value = t(key, { name: participant.name || this.nameOf(participant.identity) });
  }

  private onSubscribed(track: RemoteTrack, identity: string): void {
    if (track.kind !== Track.Kind.Audio) {
      this.bump();
      return;
    }
    const element = track.attach();
    const list = this.audio.get(identity) ?? [];
    list.push(element);
    this.audio.set(identity, list);
    this.bump();
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

  /** What this browser last asked of each publication (setSubscribed sends a request each time). */
  private readonly asked = new WeakMap<RemoteTrackPublication, boolean>();

  private subscribeIfWanted(publication: RemoteTrackPublication): void {
    const wanted = wantsSource(publication.source, this.inCall.value);
    if (this.asked.get(publication) === wanted) return;
    this.asked.set(publication, wanted);
    publication.setSubscribed(wanted);
  }

  private subscribeAsWanted(): void {
    for (const participant of this.room?.remoteParticipants.values() ?? []) {
      for (const publication of participant.trackPublications.values()) this.subscribeIfWanted(publication);
    }
  }

  private async publishMicrophone(): Promise<void> {
    const room = this.room;
    if (!room || !this.grant) return;
    const { microphone } = callBudget(this.grant.limits, this.share.value !== 'idle');
    await room.localParticipant.setMicrophoneEnabled(true, { echoCancellation: true, noiseSuppression: true }, { audioPreset: { maxBitrate: microphone }, dtx: true });
    if (this.muted.value) await room.localParticipant.getTrackPublication(Track.Source.Microphone)?.track?.mute();
  }

  /** The call ended without us leaving: join again with a new grant, or say why not. */
  private async onDisconnected(room: Room, reason: number | undefined): Promise<void> {
    if (room !== this.room) return;
    const wasSharing = this.share.value !== 'idle';
    const wasInCall = this.inCall.value;
    const wasCamera = this.cameraOn.value;
    this.room = null;
    if (this.refresh) clearInterval(this.refresh);
    this.refresh = null;
    room.removeAllListeners();
    this.detachAllAudio();
    this.dropScreen();
    this.cameraOn.value = false;
    this.bump();
    const next = afterDisconnect(reason);
    if (next === 'ended' || this.disposed) {
      this.connection.value = 'idle';
      return;
    }
    if (next !== 'rejoin') {
      this.connection.value = 'idle';
      this.inCall.value = false;
      this.notice.value = next === 'elsewhere' ? t('call.elsewhere') : t('call.removed');
      return;
    }
    // A share does not survive its server: the service ends it (reason `sfu`); the sharer starts again.
    if (wasSharing) this.notice.value = t('call.lostShare');
    await this.rejoin(wasInCall, wasCamera);
  }

  private async rejoin(inCall: boolean, camera: boolean): Promise<void> {
    this.connection.value = 'rejoining';
    this.notice.value = t('call.lostServer');
    for (let attempt = 0; attempt < REJOIN_ATTEMPTS && !this.disposed; attempt += 1) {
      const delay = rejoinDelayMs(attempt);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      if (this.disposed || this.room) return;
      if (!inCall && (this.session.view.value?.stage ?? []).length === 0) {
        this.connection.value = 'idle';
        this.notice.value = '';
        return;
      }
      try {
        this.connection.value = 'rejoining';
        await this.connect(rejoinTimeoutMs(attempt));
        if (inCall) await this.publishMicrophone();
        if (camera) await this.setCamera(true);
        this.notice.value = '';
        return;
      } catch (error) {
        // A refusal from the service (no longer a member, no use_webrtc) is final.
        if (error instanceof ApiError && error.code !== 'unavailable' && error.code !== 'busy' && error.status < 500) {
          this.error.value = error;
          break;
        }
      }
    }
    this.connection.value = 'idle';
    this.inCall.value = false;
    this.notice.value = t('call.gaveUp');
  }

  private dropScreen(): void {
    const room = this.room;
    for (const track of this.screenTracks) {
      if (room && track.sid) void room.localParticipant.unpublishTrack(track).catch(() => undefined);
      track.stop();
    }
    this.screenTracks = [];
    this.share.value = 'idle';
    this.bump();
  }

  private onRoomEvent(event: RoomViewEvent): void {
    const me = this.me;
    switch (event.type) {
      case 'stage.stopped':
        // A moderator (or the service) ended our share: stop sending the screen.
        if (event.userId === me && this.share.value !== 'idle') this.dropScreen();
        if (event.userId === me && event.reason === 'moderator') this.notice.value = t('call.share.stoppedBy', { name: this.nameOf(event.by) });
        return;
      case 'call.muted':
        if (event.userId !== me) return;
        this.muted.value = true;
        this.notice.value = t('call.mutedBy', { name: this.nameOf(event.by) });
        return;
      default:
        return;
    }
  }

  nameOf(userId: string | undefined): string {
    const members = this.session.view.value?.members ?? [];
    return members.find((member) => member.userId === userId)?.name ?? t('call.someone');
  }

  private bump(): void {
    this.revision.value += 1;
  }
}
