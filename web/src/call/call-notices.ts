/**
 * What happened to the call, in words, for the notice under the player. Two kinds share it:
 * what happened (a moderator stopped your share or muted you, the call gave up), which stays
 * until something else happens; and a connection state that passes (reconnecting, the server is
 * lost and the call joins again), shown over it while it lasts. When the connection is back, the
 * notice it covered comes back: a reconnect right after a moderator stopped your share used to
 * erase the only word of why.
 */
import { computed, signal, type ReadonlySignal } from '@preact/signals';

export class CallNotices {
  private readonly standing = signal('');
  private readonly passing = signal<string | null>(null);
  /** The notice to show; empty: nothing to say. */
  readonly text: ReadonlySignal<string> = computed(() => this.passing.value ?? this.standing.value);

  /** Something happened (empty: the last one no longer applies); a passing state still shows over it. */
  happened(text: string): void {
    this.standing.value = text;
  }

  /** A connection state begins (or changes); null: it has passed, and what it covered shows again. */
  connection(text: string | null): void {
    this.passing.value = text;
  }
}
