/**
 * This browser's part in the room's SFU media (LiveKit, docs/2026-11-29-call-and-stage-client.md):
 * one per room page, shared by the call panel and the stage. It asks the service whether the
 * room has an SFU (a stage grant; 503 `unavailable`: the room keeps the mesh voice of
 * web/src/voice/) and keeps two links (sfu-link.ts): the stage, connected while a share is on or
 * this member shares (every member watches it), and the call, connected while this member is in
 * it (use_webrtc). It publishes the microphone and camera to the call and the screen to the stage,
 * within the grant's limits (budget.ts).
 */
import { computed, effect, signal, untracked } from '@preact/signals';
import { createLocalScreenTracks, LocalAudioTrack, LocalVideoTrack, RoomEvent, Track, TrackEvent, VideoPreset, type LocalTrack, type Participant, type Room } from 'livekit-client';
import type { RoomEvent as RoomViewEvent } from '../state/room-view.js';
import type { RoomSession } from '../state/room.js';
import { api, call } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { t } from '../i18n/i18n.js';
import { loadPublicInfo } from '../state/public-info.js';
import { callBudget, SCREEN_SIZE, type Layer, type VideoPlan } from './budget.js';
import { CallNotices } from './call-notices.js';
import type { AfterDisconnect } from './rejoin.js';
import { SfuLink, type CallGrant, type Connection } from './sfu-link.js';

export type { CallGrant, Connection };
/** `probing`: asking the service; `sfu`: calls go through the SFU; `mesh`: no SFU, the mesh voice; `off`: no call for this member. */
export type CallMode = 'probing' | 'sfu' | 'mesh' | 'off';
export type ShareState = 'idle' | 'starting' | 'on';

/** LiveKit's TrackSource number for a screen share (ParticipantPermission.canPublishSources). */
const SOURCE_SCREEN_SHARE = 3;
/** How long a share waits for the SFU to let it publish its screen after the service started it. */
const SHARE_PERMISSION_MS = 10_000;

const preset = (layer: Layer) => new VideoPreset(layer.width, layer.height, layer.maxBitrate, layer.maxFramerate);
const encodingOf = (layer: Layer) => ({ maxBitrate: layer.maxBitrate, maxFramerate: layer.maxFramerate });

export class RoomCall {
  readonly mode = signal<CallMode>('probing');
  /** In the call: the microphone published, every track received. */
  readonly inCall = signal(false);
  /** Between the click on Join and the microphone going out. */
  readonly joining = signal(false);
  readonly muted = signal(false);
  readonly cameraOn = signal(false);
  readonly share = signal<ShareState>('idle');
  /** The stage: screens, for every member. */
  readonly stage: SfuLink;
  /** The call: voices and cameras, for members with use_webrtc. */
  readonly talk: SfuLink;
  /** What happened to the call, in words (lost its server, muted by a moderator); empty: nothing to say. */
  private readonly notices = new CallNotices();
  readonly notice = this.notices.text;
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

  /** The call's connection (the stage's is `stage.connection`). */
  readonly connection = computed<Connection>(() => this.talk.connection.value);
  /** The browser blocked the sound of the call or of a shared screen until a click (autoplay policy). */
  readonly soundBlocked = computed(() => this.talk.soundBlocked.value || this.stage.soundBlocked.value);

  private screenTracks: LocalTrack[] = [];
  private disposed = false;
  private readonly stops: Array<() => void> = [];
  private probing = false;
  /**
   * The camera was on when the call lost its server: it goes out again once the call is back. Kept
   * until it is out again (or the member turns it off or leaves): a second loss during the rejoin
   * finds the camera already off and must not forget it.
   */
  private lostCamera = false;

  constructor(private readonly session: RoomSession) {
    const bump = () => this.bump();
    this.stage = new SfuLink(session, 'stage', {
      granted: (grant) => this.useGrant(grant),
      changed: bump,
      lost: (next) => this.stageLost(next),
      // Someone still shows a screen (a share does not survive its server: ours ended with it).
      wanted: () => this.staged(),
      rejoined: () => Promise.resolve(),
      rejoining: () => undefined,
      gaveUp: (error) => {
        if (error) this.error.value = error;
      },
    });
    this.talk = new SfuLink(session, 'call', {
      granted: (grant) => this.useGrant(grant),
      changed: bump,
      wire: (room) => this.wireCall(room),
      lost: (next) => this.callLost(next),
      wanted: () => this.inCall.peek(),
      rejoined: () => this.sendAgain(),
      rejoining: (on) => this.notices.connection(on ? t('call.lostServer') : null),
      gaveUp: (error) => {
        if (error) this.error.value = error;
        this.inCall.value = false;
        this.notices.happened(t('call.gaveUp'));
      },
    });
    this.stops.push(session.onEvent((event) => this.onRoomEvent(event)));
    // A snapshot in the middle of the room (its activation ended uncleanly, or a reconnect that
    // could not resume) may show our share gone with no stage.stopped ever sent: stop sending.
    this.stops.push(
      session.onSnapshot((view) => {
        if (this.share.value !== 'on' || (view.stage ?? []).some((share) => share.userId === view.me.userId)) return;
        this.dropScreen();
        this.notices.happened(t('call.share.lostRoom'));
      }),
    );
    // Probe once the member's view arrives; watch the stage while a share is on.
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

  private get me(): string | undefined {
    return this.session.view.value?.me.userId;
  }

  private staged(): boolean {
    return (this.session.view.peek()?.stage ?? []).length > 0;
  }

  /** Whether the room's calls go through an SFU: the server says whether it has one, and a stage grant (every member's) confirms it. */
  private probe(): void {
    this.probing = true;
    void this.decideMode();
  }

  private async decideMode(): Promise<void> {
    try {
      // No SFU here: asking for a grant would only be refused (and logged as a failed request).
      if (!(await loadPublicInfo()).calls.sfu) {
        this.mode.value = 'mesh';
        return;
      }
      await this.stage.fetchGrant();
      this.mode.value = 'sfu';
    } catch (error) {
      // Refused: this member has no call. Anything else (a server that predates the endpoint; a
      // failure) leaves the room its mesh voice, which needs no SFU.
      if (error instanceof ApiError && (error.code === 'forbidden' || error.code === 'unauthenticated')) {
        this.error.value = error;
        this.mode.value = 'off';
      } else this.mode.value = 'mesh';
    }
  }

  private useGrant(grant: CallGrant): void {
    this.moderator.value = grant.moderator;
    if (grant.part === 'call') this.cameraRefused.value = grant.sources.includes('camera') ? null : (grant.cameraRefused ?? null);
  }

  /** Connected to the stage while a share is on; gone again once it ends, unless sharing. */
  private followStage(staged: boolean): void {
    // Peeked, not read: the effect follows the stage alone.
    if (staged && this.stage.connection.peek() === 'idle') void this.stage.connect().catch((error: unknown) => (this.error.value = error));
    else if (!staged && this.stage.connection.peek() === 'connected') void this.leaveStageIfUnused();
  }

  /** Leaves the stage's SFU room when nothing keeps this browser there (no share on, not sharing). */
  private async leaveStageIfUnused(): Promise<void> {
    if (this.share.peek() !== 'idle' || this.staged()) return;
    await this.stage.disconnect();
  }

  /** Joins the call: connects, publishes the microphone, receives everyone in it. */
  async join(): Promise<void> {
    if (this.inCall.value || this.joining.value) return;
    this.error.value = null;
    this.joining.value = true;
    try {
      await this.talk.connect();
      await this.publishMicrophone();
      this.inCall.value = true;
    } catch (error) {
      this.error.value = error;
      await this.leave();
    } finally {
      this.joining.value = false;
    }
  }

  /** Leaves the call (the stage stays while a share is on). */
  async leave(): Promise<void> {
    this.inCall.value = false;
    this.cameraOn.value = false;
    this.lostCamera = false;
    await this.talk.disconnect();
    this.bump();
  }

  async setMuted(muted: boolean): Promise<void> {
    this.muted.value = muted;
    const track = this.talk.room?.localParticipant.getTrackPublication(Track.Source.Microphone)?.track;
    if (!track) {
      // Joined muted: the microphone goes out for the first time now.
      if (!muted && this.inCall.value) await this.publishMicrophone().catch((error: unknown) => this.unmuteFailed(error));
      this.bump();
      return;
    }
    try {
      if (muted) await track.mute();
      else await track.unmute();
      if (!muted) this.notices.happened('');
    } catch (error) {
      if (muted) this.error.value = error;
      else this.unmuteFailed(error);
    }
    this.bump();
  }

  /** Unmuting asks the browser for the microphone again, which it may refuse: still muted. */
  private unmuteFailed(error: unknown): void {
    this.muted.value = true;
    this.error.value = error;
  }

  async setCamera(on: boolean): Promise<void> {
    const room = this.talk.room;
    const grant = this.talk.grant;
    if (!room || !grant) return;
    try {
      if (on) {
        const plan = callBudget(grant.limits, this.share.value !== 'idle').camera;
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
      this.lostCamera = false;
    } catch (error) {
      this.error.value = error;
    }
    this.bump();
  }

  /** Lets the call's and the screens' sound play after the browser blocked it (a click calls this). */
  async playSound(): Promise<void> {
    await Promise.all([this.talk.playSound(), this.stage.playSound()]);
  }

  /**
   * Shows this member's screen on the stage. The browser's picker comes first, on the click (it
   * needs the gesture): cancelling it starts nothing. Then, connected to the stage, the service
   * starts the share (it may refuse: the stage is full, no permission, the room's bandwidth is
   * taken), the SFU lets us publish the screen (its permission update), and the screen goes out
   * within the share's cap.
   */
  async startShare(keepPlaying: boolean): Promise<void> {
    // The probe's stage grant carries the caps; the Share button shows only once it came.
    const grant = this.stage.grant;
    if (this.share.value !== 'idle' || !grant) return;
    this.shareError.value = null;
    const budget = callBudget(grant.limits, true);
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
      // On the stage first: the SFU grants screen_share to a participant it has.
      await this.stage.connect();
      await call(
        api.POST('/api/rooms/{roomId}/stage', {
          params: { path: { roomId: this.session.roomId } },
          body: keepPlaying ? { keepPlaying: true } : {},
        }),
      );
    } catch (error) {
      this.shareError.value = error;
      this.dropScreen();
      await this.leaveStageIfUnused();
      return;
    }
    try {
      const room = await this.mayPublishScreen();
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

  /** Resolves with the stage's room once the SFU lets this participant publish a screen (the service grants it just after starting the share). */
  private mayPublishScreen(): Promise<Room> {
    const room = this.stage.room;
    if (!room) return Promise.reject(new Error(t('call.share.notAllowed')));
    const allowed = () => (room.localParticipant.permissions?.canPublishSources ?? []).includes(SOURCE_SCREEN_SHARE);
    if (allowed()) return Promise.resolve(room);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        room.off(RoomEvent.ParticipantPermissionsChanged, check);
        reject(new Error(t('call.share.notAllowed')));
      }, SHARE_PERMISSION_MS);
      const check = () => {
        if (!allowed()) return;
        clearTimeout(timer);
        room.off(RoomEvent.ParticipantPermissionsChanged, check);
        resolve(room);
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

  /** Leaves the call and the stage (the room page went away). */
  dispose(): void {
    this.disposed = true;
    for (const stop of this.stops) stop();
    if (this.share.value !== 'idle') void this.stopShare();
    this.stage.dispose();
    this.talk.dispose();
  }

  /** The participants in the call, this browser first when in it. */
  participants(): Participant[] {
    void this.revision.value;
    return this.talk.participants();
  }

  /** The participants watching the stage (the sharers included), this browser first. */
  stageParticipants(): Participant[] {
    void this.revision.value;
    return this.stage.participants();
  }

  /** Whether a participant of the call has joined it (this browser: once its microphone is out). */
  isInCall(participant: Participant): boolean {
    if (participant === this.talk.room?.localParticipant) return this.inCall.value;
    return true;
  }

  private wireCall(room: Room): void {
    room.on(RoomEvent.ParticipantDisconnected, (participant) => this.announce('call.left', participant));
    room.on(RoomEvent.ParticipantConnected, (participant) => this.announce('call.joined', participant));
    room.on(RoomEvent.TrackMuted, (publication, participant) => {
      // A moderator's mute reaches us as the SFU muting our microphone.
      if (participant === room.localParticipant && publication.source === Track.Source.Microphone) this.muted.value = true;
    });
    room.on(RoomEvent.Reconnecting, () => this.notices.connection(t('call.reconnecting')));
    room.on(RoomEvent.Reconnected, () => this.notices.connection(null));
  }

  private announce(key: 'call.joined' | 'call.left', participant: Participant): void {
    this.announcement.value = t(key, { name: participant.name || this.nameOf(participant.identity) });
  }

  /**
   * After a rejoin: the microphone, and the camera if it was on, go out again. Each failure is
   * said and neither stops the other (a microphone refused under load must not keep the camera
   * off); the camera is tried again at the next rejoin, or by the member's click.
   */
  private async sendAgain(): Promise<void> {
    try {
      await this.publishMicrophone();
    } catch (error) {
      this.error.value = error;
    }
    if (this.lostCamera) await this.setCamera(true);
  }

  private async publishMicrophone(): Promise<void> {
    const room = this.talk.room;
    const grant = this.talk.grant;
    if (!room || !grant) return;
    // Muted (before joining, or when the call came back): nothing is captured until the unmute.
    if (this.muted.value) return;
    const { microphone } = callBudget(grant.limits, this.share.value !== 'idle');
    // A muted microphone is released, not only silenced: the browser's recording indicator goes
    // out, and most of a watch party listens muted, each page otherwise capturing and cleaning a
    // microphone nobody hears. Unmuting asks the browser for it again (no prompt once granted).
    await room.localParticipant.setMicrophoneEnabled(
      true,
      { echoCancellation: true, noiseSuppression: true },
      { audioPreset: { maxBitrate: microphone }, dtx: true, stopMicTrackOnMute: true },
    );
    if (this.muted.value) await room.localParticipant.getTrackPublication(Track.Source.Microphone)?.track?.mute();
  }

  /** The call ended without us leaving: say why, and remember the camera for the rejoin. */
  private callLost(next: AfterDisconnect): void {
    if (this.cameraOn.value) this.lostCamera = true;
    this.cameraOn.value = false;
    if (next === 'elsewhere' || next === 'removed') {
      this.inCall.value = false;
      this.notices.happened(next === 'elsewhere' ? t('call.elsewhere') : t('call.removed'));
    }
  }

  /** The stage ended without us leaving: a share does not survive its server (the service ends it, reason `sfu`). */
  private stageLost(next: AfterDisconnect): void {
    const wasSharing = this.share.value !== 'idle';
    this.dropScreen();
    if (wasSharing && next === 'rejoin') this.notices.happened(t('call.lostShare'));
  }

  private dropScreen(): void {
    const room = this.stage.room;
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
        if (event.userId === me && event.reason === 'moderator') this.notices.happened(t('call.share.stoppedBy', { name: this.nameOf(event.by) }));
        return;
      case 'call.muted':
        if (event.userId !== me) return;
        this.muted.value = true;
        this.notices.happened(t('call.mutedBy', { name: this.nameOf(event.by) }));
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
    if (!this.disposed) this.revision.value += 1;
  }
}
