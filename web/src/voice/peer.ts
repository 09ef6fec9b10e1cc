/**
 * One RTCPeerConnection to another participant, negotiated with the "perfect negotiation"
 * pattern (W3C WebRTC 1.0, section 10.7): either side may offer whenever it needs to; when
 * two offers cross, the impolite peer ignores the other's and the polite one rolls its own
 * back. Who is polite is decided by user id order, so both ends agree without a round trip.
 *
 * A connection that never comes up is replaced rather than waited on: the impolite side gives it
 * `connectWithinMs`, then asks for a fresh RTCPeerConnection, whose offer carries a new DTLS
 * fingerprint; an offer with a fingerprint other than the one this peer has been talking to comes
 * from a new connection on the other side, and the receiver replaces its own to match
 * (docs/2026-11-27-voice-connection-renewal.md).
 */
import type { VoiceCandidate, VoiceDescription } from '../../../contracts/room/model.js';
import { fingerprintOf } from './sdp-fingerprint.js';

export interface PeerSignal {
  description?: VoiceDescription;
  candidate?: VoiceCandidate;
}

export interface PeerOptions {
  polite: boolean;
  config: RTCConfiguration;
  localStream: MediaStream;
  send(signal: PeerSignal): void;
  /** Milliseconds to reach `connected` before `onStuck`; none: wait as long as it takes. */
  connectWithinMs?: number;
  /** The connection did not come up in `connectWithinMs`: the owner replaces this peer. */
  onStuck?: () => void;
  /** The remote participant's audio, once its first track arrives. */
  onStream(stream: MediaStream): void;
  onError(error: unknown): void;
}

export class VoicePeer {
  readonly pc: RTCPeerConnection;
  private makingOffer = false;
  private ignoreOffer = false;
  private settingRemoteAnswer = false;
  /** Signals are applied one after another: each step awaits the connection's own state machine. */
  private queue: Promise<void> = Promise.resolve();
  /** The DTLS fingerprint of the other side's connection, from its last description. */
  private remoteFingerprint: string | undefined;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly userId: string,
    private readonly options: PeerOptions,
  ) {
    const pc = new RTCPeerConnection(options.config);
    this.pc = pc;
    for (const track of options.localStream.getTracks()) pc.addTrack(track, options.localStream);
    pc.onnegotiationneeded = () => void this.offer();
    pc.onicecandidate = ({ candidate }) => {
      // End-of-candidates (null) is not relayed: browsers finish checks without it.
      if (candidate) options.send({ candidate: candidate.toJSON() as VoiceCandidate });
    };
    pc.ontrack = ({ streams, track }) => options.onStream(streams[0] ?? new MediaStream([track]));
    pc.oniceconnectionstatechange = () => {
      if (pc.iceConnectionState === 'failed') pc.restartIce();
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'connected') this.stopConnectTimer();
    };
    const { connectWithinMs, onStuck } = options;
    if (connectWithinMs !== undefined && onStuck) {
      // An ICE restart would not do: a connection whose gathering never started stays stuck
      // through one (Chromium 156 does this now and then on a cold start).
      this.connectTimer = setTimeout(() => {
        this.connectTimer = undefined;
        if (pc.connectionState !== 'connected') onStuck();
      }, connectWithinMs);
    }
  }

  /** Whether `description` comes from another connection than the one this peer talks to. */
  isFromAnotherConnection(description: VoiceDescription): boolean {
    if (description.type !== 'offer' || this.remoteFingerprint === undefined) return false;
    const fingerprint = fingerprintOf(description.sdp);
    return fingerprint !== undefined && fingerprint !== this.remoteFingerprint;
  }

  receive(signal: PeerSignal): Promise<void> {
    // Noted on arrival, not once applied: the next signal is judged against it straight away.
    if (signal.description) this.remoteFingerprint = fingerprintOf(signal.description.sdp) ?? this.remoteFingerprint;
    this.queue = this.queue.then(() => this.apply(signal)).catch((error: unknown) => this.options.onError(error));
    return this.queue;
  }

  close(): void {
    this.stopConnectTimer();
    this.pc.onnegotiationneeded = null;
    this.pc.onconnectionstatechange = null;
    this.pc.onicecandidate = null;
    this.pc.ontrack = null;
    this.pc.close();
  }

  private async offer(): Promise<void> {
    try {
      this.makingOffer = true;
      await this.pc.setLocalDescription();
      this.sendDescription();
    } catch (error) {
      this.options.onError(error);
    } finally {
      this.makingOffer = false;
    }
  }

  private async apply({ description, candidate }: PeerSignal): Promise<void> {
    const { pc } = this;
    if (description) {
      const readyForOffer = !this.makingOffer && (pc.signalingState === 'stable' || this.settingRemoteAnswer);
      const collision = description.type === 'offer' && !readyForOffer;
      this.ignoreOffer = !this.options.polite && collision;
      if (this.ignoreOffer) return;
      this.settingRemoteAnswer = description.type === 'answer';
      // A polite peer in collision rolls its own offer back implicitly (setRemoteDescription does it).
      await pc.setRemoteDescription(description);
      this.settingRemoteAnswer = false;
      if (description.type === 'offer') {
        await pc.setLocalDescription();
        this.sendDescription();
      }
    } else if (candidate) {
      try {
        await pc.addIceCandidate(candidate);
      } catch (error) {
        // Candidates of an offer we ignored, or of a connection or ICE session the other side has
        // since replaced, cannot apply; anything else is a real failure.
        if (!this.ignoreOffer && !this.isStale(candidate)) throw error;
      }
    }
  }

  private isStale(candidate: VoiceCandidate): boolean {
    const ufrag = candidate.usernameFragment;
    const remote = this.pc.remoteDescription?.sdp;
    return ufrag != null && remote !== undefined && !remote.split(/\r?\n/).includes(`a=ice-ufrag:${ufrag}`);
  }

  private stopConnectTimer(): void {
    if (this.connectTimer !== undefined) clearTimeout(this.connectTimer);
    this.connectTimer = undefined;
  }

  private sendDescription(): void {
    const local = this.pc.localDescription;
    if (local) this.options.send({ description: { type: local.type, sdp: local.sdp } });
  }
}

/** The polite side of a pair: the one with the greater user id (any fixed order would do). */
export function isPolite(myUserId: string, theirUserId: string): boolean {
  return myUserId > theirUserId;
}
