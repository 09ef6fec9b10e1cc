/**
 * Who is in the room right now: members with at least one live connection (a socket on some
 * gateway), and the player state each last reported. Held in memory only; it drives the
 * ready wait and the actor's idleness. Gateways announce connections with `presence.enter`
 * and repeat it as a heartbeat; a connection not refreshed within the TTL is dropped, so a
 * gateway that dies cannot keep a room awake or hold its playback forever.
 */
import type { PlayerState } from '../../contracts/room/model.js';

export interface PlayerReport {
  state: PlayerState;
  mediaId: string | null;
}

interface PresentUser {
  /** connection id -> last time it was announced (server ms). */
  connections: Map<string, number>;
  player: PlayerReport | null;
}

export class Presence {
  private readonly users = new Map<string, PresentUser>();

  get size(): number {
    return this.users.size;
  }

  isOnline(userId: string): boolean {
    return this.users.has(userId);
  }

  userIds(): string[] {
    return [...this.users.keys()];
  }

  /** Whether this connection of the user is announced (and not yet left or expired). */
  hasConnection(userId: string, connectionId: string): boolean {
    return this.users.get(userId)?.connections.has(connectionId) ?? false;
  }

  player(userId: string): PlayerReport | null {
    return this.users.get(userId)?.player ?? null;
  }

  /** Adds or refreshes a connection; true when the user was not online before. */
  enter(userId: string, connectionId: string, now: number): boolean {
    const user = this.users.get(userId);
    if (user) {
      user.connections.set(connectionId, now);
      return false;
    }
    this.users.set(userId, { connections: new Map([[connectionId, now]]), player: null });
    return true;
  }

  /** Removes a connection; true when it was the user's last one. */
  leave(userId: string, connectionId: string): boolean {
    const user = this.users.get(userId);
    if (!user || !user.connections.delete(connectionId)) return false;
    if (user.connections.size > 0) return false;
    this.users.delete(userId);
    return true;
  }

  /** Takes the user out whatever connections they have (kick, ban, leave); true if they were online. */
  drop(userId: string): boolean {
    return this.users.delete(userId);
  }

  setPlayer(userId: string, report: PlayerReport): void {
    const user = this.users.get(userId);
    if (user) user.player = report;
  }

  /** Drops connections last seen before `cutoff`; returns the users who lost any, and whether they are still online. */
  expire(cutoff: number): Array<{ userId: string; online: boolean }> {
    const changed: Array<{ userId: string; online: boolean }> = [];
    for (const [userId, user] of this.users) {
      const before = user.connections.size;
      for (const [connectionId, seen] of user.connections) {
        if (seen < cutoff) user.connections.delete(connectionId);
      }
      if (user.connections.size === before) continue;
      const online = user.connections.size > 0;
      if (!online) this.users.delete(userId);
      changed.push({ userId, online });
    }
    return changed;
  }

  clear(): void {
    this.users.clear();
  }
}
