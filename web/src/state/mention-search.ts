/**
 * The members a crowd's chat composer offers after an `@`. A crowd's room view names only its
 * owner and admins (docs/2026-11-30-crowds.md), so everyone else is searched on the server as
 * the name is typed: one request once typing pauses, and only the answer to the latest text
 * counts. The request is passed in: this module runs, and is tested, without the page's API
 * client.
 */
import { signal, type ReadonlySignal } from '@preact/signals';
import type { MentionCandidate } from '../../../contracts/room/mentions.js';

/** Members whose name contains `text`, in any case (GET /api/rooms/{roomId}/members?q=). */
export type SearchMembers = (text: string) => Promise<MentionCandidate[]>;

/** How long typing must pause before the server is asked. */
export const MENTION_SEARCH_DELAY_MS = 150;

export class MentionSearch {
  private readonly found = signal<MentionCandidate[]>([]);
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts asks: an answer is kept only if nothing was asked after its own. */
  private asked = 0;

  constructor(
    private readonly search: SearchMembers,
    private readonly delayMs = MENTION_SEARCH_DELAY_MS,
  ) {}

  /** The last answer: still worth offering while the next is on its way, since the composer filters by the text typed. */
  get members(): ReadonlySignal<MentionCandidate[]> {
    return this.found;
  }

  /** The text after the `@` changed; empty or undefined: nothing to search (a bare `@` offers the named members). */
  ask(text: string | undefined): void {
    clearTimeout(this.timer);
    const ask = ++this.asked;
    if (!text) return;
    this.timer = setTimeout(() => {
      this.search(text).then(
        (members) => {
          if (ask === this.asked) this.found.value = members;
        },
        // A refused or failed search (a rate limit, a dropped connection) offers what is known.
        () => undefined,
      );
    }, this.delayMs);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.asked += 1;
  }
}

/** `named` then those of `found` not among them: one entry per member. */
export function withFound(named: readonly MentionCandidate[], found: readonly MentionCandidate[]): MentionCandidate[] {
  if (found.length === 0) return [...named];
  const ids = new Set(named.map((member) => member.id));
  return [...named, ...found.filter((member) => !ids.has(member.id))];
}
