/**
 * What the room asks about a media item's provider when it is added or edited. The actor
 * does not know which providers exist (they are registered at start, third-party ones
 * included): the service injects a checker, backed by the provider registry, that refuses an
 * unknown provider name or an item its provider cannot play, naming the field.
 */
import type { FieldIssue } from '../../errors/index.js';

export interface MediaFieldsToCheck {
  provider: string;
  url: string;
  headers: Record<string, string>;
  /** The room the item is added to or edited in (a library item's link is bound to one). */
  roomId?: string;
}

export interface MediaChecker {
  /** Problems with the item for its provider, each naming `provider`, `url` or `headers.<name>`; empty when it is fine. */
  checkMedia(fields: MediaFieldsToCheck): FieldIssue[];
  /** Where the item starts when it is made current (seconds): a YouTube link's `t=`; 0 when the provider says nothing. */
  startOf?(fields: Pick<MediaFieldsToCheck, 'provider' | 'url'>): number;
}

/** The position an item is cued at when it becomes current. */
export function startPosition(checker: MediaChecker | undefined, item: Pick<MediaFieldsToCheck, 'provider' | 'url'>): number {
  return checker?.startOf?.(item) ?? 0;
}
