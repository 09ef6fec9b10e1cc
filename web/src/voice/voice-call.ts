/**
 * This browser's part in the room's voice call: the microphone, one VoicePeer per other
 * participant (a full mesh), the remote audio, who is speaking, and the room commands
 * (`voice.join`, `voice.leave`, `voice.mute`, `voice.signal`). The participant list itself is
 * the room view's (`view.voice`, kept by room events), so it shows even before joining.
 */
import { signal } from '@preact/signals';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomEvent } from '../state/room-view.js';
import type { RoomSession } from '../state/room.js';
import { iceTransportPolicy } from './ice-policy.js';
import { LevelMeter, SPEAKING_HOLD_MS, SPEAKING_LEVEL } from './level-meter.js';
import { isPolite, VoicePeer, type PeerSignal } from './peer.js';
import { t } from '../i18n/i18n.js';

export type CallState = 'idle' | 'joining' | 'joined';

interface Remote {
  peer: VoicePeer;
  audio: HTMLAudioElement | null;
  meter: LevelMeter | null;
}

const SPEAKING_POLL_MS = 100;
/**
 * A connection not up in this long is replaced (by the impolite side; the other follows). ICE and
 * DTLS through a TURN relay take a second or two; each replacement waits twice as long as the
 * last, up to the cap, so an unreachable relay costs a new attempt a minute, not a storm.
 */
const CONNECT_WITHIN_MS = 8_000;
const CONNECT_WITHIN_MAX_MS = 64_000;

export class VoiceCall {
  readonly state = signal<CallState>('idle');
  readonly muted = signal(false);
  /** User ids whose audio is above the speaking level now (me included). */
  readonly speaking = signal<ReadonlySet<string>>(new Set());
  readonly error = signal<unknown>(null);
  /** Joins and leaves, for a live region. */
  readonly announcement = signal('');

  private local: MediaStream | null = null;
  private localMeter: LevelMeter | null = null;
  private audioContext: AudioContext | null = null;
  private config: RTCConfiguration = {};
  private readonly remotes = new Map<string, Remote>();
  /** When each participant was last loud (performance.now()). */
  private readonly lastLoud = new Map<string, number>();
  private poll: ReturnType<typeof setInterval> | null = null;
  /**
   * Signals that reached us between sending `voice.join` and reading its answer. The answer and
   * the room's events travel separately, so another participant can see us join and send an
   * offer before we know we are seated; dropping that offer leaves both ends waiting forever.
   */
  private early: Array<{ from: string; signal: PeerSignal }> = [];
  private readonly unsubscribe: () => void;

  constructor(private readonly session: RoomSession) {
    const stopEvents = session.onEvent((event) => this.onEvent(event));
    // A snapshot (a reconnect that could not resume) may show the seat already freed, with the
    // event that freed it never delivered: sit down again from here too.
    const stopSnapshots = session.onSnapshot((view) => {
      if (this.state.value === 'joined' && view.voice && !view.voice.some((p) => p.userId === view.me.userId)) this.rejoin();
    });
    this.unsubscribe = () => {
      stopEvents();
      stopSnapshots();
    };
  }

  private get me(): string | undefined {
    return this.session.view.value?.me.userId;
  }

  async join(): Promise<void> {
    if (this.state.value !== 'idle') return;
    this.state.value = 'joining';
    this.error.value = null;
    try {
      this.local ??= await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true }, video: false });
      for (const track of this.local.getAudioTracks()) track.enabled = !this.muted.value;
      // Created on the click that joins: an AudioContext started without a gesture stays suspended.
      this.audioContext ??= new AudioContext();
      void this.audioContext.resume();
      this.localMeter ??= new LevelMeter(this.audioContext, this.local);
      await this.enter();
      this.poll ??= setInterval(() => this.measure(), SPEAKING_POLL_MS);
    } catch (error) {
      this.error.value = error;
      this.teardown();
    }
  }

  async leave(): Promise<void> {
    if (this.state.value === 'idle') return;
    this.teardown();
    try {
      await this.session.send({ kind: 'voice.leave' });
    } catch (error) {
      // The room takes us out anyway when this connection leaves it.
      this.error.value = error;
    }
  }

  async setMuted(muted: boolean): Promise<void> {
    this.muted.value = muted;
    for (const track of this.local?.getAudioTracks() ?? []) track.enabled = !muted;
    if (this.state.value !== 'joined') return;
    try {
      await this.session.send({ kind: 'voice.mute', muted });
    } catch (error) {
      this.error.value = error;
    }
  }

  /** Leaves the call and stops listening to the room (the panel unmounted). */
  dispose(): void {
    this.unsubscribe();
    if (this.state.value !== 'idle') void this.session.send({ kind: 'voice.leave' }).catch(() => undefined);
    this.teardown();
  }

  /** Takes a seat and connects to everyone already in the call. */
  private async enter(): Promise<void> {
    const answer = await this.session.send<RoomResults['voice.join']>({ kind: 'voice.join', muted: this.muted.value });
    this.config = { iceServers: answer.iceServers, iceTransportPolicy: iceTransportPolicy() };
    this.state.value = 'joined';
    for (const participant of answer.participants) if (participant.userId !== this.me) this.remote(participant.userId);
    const early = this.early;
    this.early = [];
    for (const { from, signal } of early) this.deliver(from, signal);
  }

  /** Hands a signal to the connection with its sender, a new one when the sender started anew. */
  private deliver(from: string, signal: PeerSignal): void {
    const existing = this.remotes.get(from);
    if (existing && signal.description && existing.peer.isFromAnotherConnection(signal.description)) this.closeRemote(from);
    void this.remote(from).peer.receive(signal);
  }

  /** Takes a seat again on this socket; the others drop their connections to us and we reconnect to them. */
  private rejoin(): void {
    this.closeRemotes();
    this.early = [];
    this.state.value = 'joining';
    this.enter().catch((error: unknown) => {
      this.error.value = error;
      this.teardown();
    });
  }

  private onEvent(event: RoomEvent): void {
    const me = this.me;
    switch (event.type) {
      case 'voice.joined':
        if (event.participant.userId === me) return;
        this.announcement.value = t('room.voice.joined', { name: event.participant.name });
        // Both ends open a connection and may offer; perfect negotiation settles who wins.
        if (this.state.value === 'joined') this.remote(event.participant.userId);
        return;
      case 'voice.left': {
        if (event.userId === me) {
          if (this.state.value !== 'joined') return;
          // Our socket reconnected (the old connection's seat was freed): sit down again.
          if (event.reason === 'disconnected') this.rejoin();
          else this.teardown();
          return;
        }
        const name = this.session.view.value?.members?.find((m) => m.userId === event.userId)?.name ?? t('room.voice.someone');
        this.announcement.value = t('room.voice.left', { name });
        this.closeRemote(event.userId);
        return;
      }
      case 'voice.signal': {
        if (event.to !== me || this.state.value === 'idle') return;
        const signal: PeerSignal = {
          ...(event.description ? { description: event.description } : {}),
          ...(event.candidate ? { candidate: event.candidate } : {}),
        };
        if (this.state.value === 'joining') this.early.push({ from: event.from, signal });
        else this.deliver(event.from, signal);
        return;
      }
      default:
        return;
    }
  }

  /** `renewals`: how many connections to this participant were replaced for not coming up. */
  private remote(userId: string, renewals = 0): Remote {
    const existing = this.remotes.get(userId);
    if (existing) return existing;
    const polite = isPolite(this.me ?? '', userId);
    const entry: Remote = { peer: null as unknown as VoicePeer, audio: null, meter: null };
    entry.peer = new VoicePeer(userId, {
      polite,
      config: this.config,
      // One side watches, so that the two do not replace their connections at each other.
      ...(polite
        ? {}
        : {
            connectWithinMs: Math.min(CONNECT_WITHIN_MS * 2 ** renewals, CONNECT_WITHIN_MAX_MS),
            onStuck: () => {
              if (this.remotes.get(userId) !== entry) return;
              this.closeRemote(userId);
              this.remote(userId, renewals + 1);
            },
          }),
      localStream: this.local!,
      send: (signal: PeerSignal) => {
        void this.session.send({ kind: 'voice.signal', to: userId, ...signal }).catch((error: unknown) => {
          // The other side left between our decision and the relay: nothing to do.
          if ((error as { code?: string }).code !== 'not_found') this.error.value = error;
        });
      },
      onStream: (stream) => {
        if (entry.audio) return;
        const audio = new Audio();
        audio.autoplay = true;
        audio.srcObject = stream;
        void audio.play().catch(() => undefined);
        entry.audio = audio;
        // Chromium feeds WebAudio from a remote stream only while a media element plays it too.
        if (this.audioContext) entry.meter = new LevelMeter(this.audioContext, stream);
      },
      onError: (error) => {
        this.error.value = error;
      },
    });
    this.remotes.set(userId, entry);
    return entry;
  }

  private closeRemote(userId: string): void {
    const entry = this.remotes.get(userId);
    if (!entry) return;
    this.remotes.delete(userId);
    entry.peer.close();
    entry.meter?.close();
    if (entry.audio) {
      entry.audio.pause();
      entry.audio.srcObject = null;
    }
  }

  private closeRemotes(): void {
    for (const userId of [...this.remotes.keys()]) this.closeRemote(userId);
  }

  private measure(): void {
    const at = performance.now();
    const me = this.me;
    if (me && !this.muted.value && this.localMeter && this.localMeter.level() > SPEAKING_LEVEL) this.lastLoud.set(me, at);
    for (const [userId, entry] of this.remotes) if (entry.meter && entry.meter.level() > SPEAKING_LEVEL) this.lastLoud.set(userId, at);
    const now = new Set<string>();
    for (const [userId, loudAt] of this.lastLoud) {
      if (at - loudAt <= SPEAKING_HOLD_MS && (userId === me ? !this.muted.value : this.remotes.has(userId))) now.add(userId);
      else this.lastLoud.delete(userId);
    }
    const before = this.speaking.value;
    if (now.size !== before.size || [...now].some((id) => !before.has(id))) this.speaking.value = now;
  }

  private teardown(): void {
    this.closeRemotes();
    this.early = [];
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    this.localMeter?.close();
    this.localMeter = null;
    for (const track of this.local?.getTracks() ?? []) track.stop();
    this.local = null;
    void this.audioContext?.close().catch(() => undefined);
    this.audioContext = null;
    this.lastLoud.clear();
    this.speaking.value = new Set();
    this.state.value = 'idle';
  }
}
