/**
 * The room's voice call: who is in it, muted or not, and through which connection. Held in
 * memory only, like presence: a call does not outlive the connections in it, so it needs no
 * row, and it ends with the activation (a passivated room has nobody present, hence nobody in
 * the call).
 */
import type { VoiceParticipant } from '../../../contracts/room/model.js';

interface Seat extends VoiceParticipant {
  /** The connection that joined: the participant leaves when it leaves the room. */
  connectionId: string;
}

export class VoiceCall {
  private readonly seats = new Map<string, Seat>();

  get size(): number {
    return this.seats.size;
  }

  has(userId: string): boolean {
    return this.seats.has(userId);
  }

  participant(userId: string): VoiceParticipant | undefined {
    const seat = this.seats.get(userId);
    return seat && publicView(seat);
  }

  connectionOf(userId: string): string | undefined {
    return this.seats.get(userId)?.connectionId;
  }

  /** Everyone in the call, in join order. */
  participants(): VoiceParticipant[] {
    return [...this.seats.values()].map(publicView);
  }

  userIds(): string[] {
    return [...this.seats.keys()];
  }

  /** Seats a participant, or moves an existing one to a new connection (a reconnect, another tab). */
  join(participant: VoiceParticipant, connectionId: string): void {
    this.seats.set(participant.userId, { ...participant, connectionId });
  }

  setMuted(userId: string, muted: boolean): VoiceParticipant | undefined {
    const seat = this.seats.get(userId);
    if (!seat) return undefined;
    seat.muted = muted;
    return publicView(seat);
  }

  leave(userId: string): boolean {
    return this.seats.delete(userId);
  }

  clear(): void {
    this.seats.clear();
  }
}

function publicView(seat: Seat): VoiceParticipant {
  return { userId: seat.userId, name: seat.name, muted: seat.muted, joinedAt: seat.joinedAt };
}
