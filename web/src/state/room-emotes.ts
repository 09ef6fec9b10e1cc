/**
 * A room's custom emotes as the page knows them (docs/2026-11-26-room-emotes.md), read when the
 * room opens and again when a message names one the page does not know (another admin just
 * uploaded it), at most every few seconds, or when the picker opens. No room event carries them:
 * a page that has not seen an emote yet shows its `:name:` as text until it reads the list.
 */
import { signal, type Signal } from '@preact/signals';
import { EMOTE_IN_TEXT } from '../../../contracts/room/emotes.js';
import { api, call } from '../api/client.js';
import type { Schemas } from '../api/types.js';

export type Emote = Schemas['Emote'];

/** Shortest time between two reads of one room's list caused by unknown names. */
const REREAD_AFTER_MS = 5_000;

export class RoomEmotes {
  readonly byName: Signal<ReadonlyMap<string, Emote>> = signal(new Map());
  private lastRead = 0;
  private reading: Promise<void> | undefined;
  private later: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly roomId: string) {}

  /** Reads the list now (once at a time); a refusal (not a member yet) leaves the last one. */
  read(): Promise<void> {
    this.reading ??= (async () => {
      try {
        this.lastRead = Date.now();
        const { emotes } = await call(api.GET('/api/rooms/{roomId}/emotes', { params: { path: { roomId: this.roomId } } }));
        this.byName.value = new Map(emotes.map((emote) => [emote.name, emote]));
      } catch {
        // Shown as text until the next read; nothing to tell the person.
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  /**
   * Reads the list again if `text` names an emote the page does not know: now, or once the last
   * read is a few seconds old (a name that is no emote must not make every message a request).
   */
  notice(text: string): void {
    if (this.later !== undefined) return;
    const unknown = [...text.matchAll(EMOTE_IN_TEXT)].some((match) => !this.byName.value.has(match[1] as string));
    if (!unknown) return;
    const wait = this.lastRead + REREAD_AFTER_MS - Date.now();
    if (wait <= 0) {
      void this.read();
      return;
    }
    this.later = setTimeout(() => {
      this.later = undefined;
      void this.read();
    }, wait);
  }

  /** The page left the room: no read after it. */
  stop(): void {
    clearTimeout(this.later);
    this.later = undefined;
  }
}
