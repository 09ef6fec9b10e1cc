/**
 * "Is the session this media link was handed to still live, and still its holder's?", asked
 * of every `/media/proxy` and `/media/live` request. A player reads a movie in hundreds of
 * ranges, so answers are remembered per session for `ttlMs`; a revocation announced to this
 * gateway (gateways/session-connections.ts) forgets the sessions it names at once, so a
 * sign-out or ban stops playback within a second, and within `ttlMs` if its message was lost.
 */
import { subjectOf, type Caller } from '../../accounts/index.js';
import type { SessionStore } from '../../accounts/index.js';
import { AppError } from '../../errors/index.js';
import type { MediaGrant } from '../../media/index.js';
import { matches, type SessionConnections } from '../session-connections.js';

export const SESSION_TTL_MS = 10_000;
const MAX_ENTRIES = 5000;

interface Entry {
  at: number;
  caller: Promise<Caller | undefined>;
}

export class GrantSessions {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly sessions: Pick<SessionStore, 'resolve'>,
    connections: Pick<SessionConnections, 'onRevoked'>,
    private readonly ttlMs = SESSION_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    connections.onRevoked((revocation) => {
      for (const [sessionId, entry] of [...this.entries]) {
        // A read still under way is judged by its answer: it may have started before the revocation committed.
        void entry.caller.then(
          (caller) => {
            if (caller && matches(revocation, sessionId, caller)) this.forget(sessionId, entry);
          },
          () => undefined,
        );
      }
    });
  }

  /** The grant's holder as the session says now; `unauthenticated` once the session ended or changed hands. */
  async holder(grant: MediaGrant): Promise<Caller> {
    const caller = await this.callerOf(grant.sessionId);
    if (!caller || subjectOf(caller) !== grant.userId) {
      throw new AppError('unauthenticated', 'the session this media link was made for has ended; sign in and ask the room for a new one');
    }
    return caller;
  }

  private callerOf(sessionId: string): Promise<Caller | undefined> {
    const now = this.now();
    const entry = this.entries.get(sessionId);
    if (entry && now - entry.at < this.ttlMs) return entry.caller;
    const fresh: Entry = { at: now, caller: this.sessions.resolve(sessionId) };
    this.entries.set(sessionId, fresh);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    // Only answers are remembered; a failure is asked again next time.
    fresh.caller.catch(() => this.forget(sessionId, fresh));
    return fresh.caller;
  }

  private forget(sessionId: string, entry: Entry): void {
    if (this.entries.get(sessionId) === entry) this.entries.delete(sessionId);
  }
}
