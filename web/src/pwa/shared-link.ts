/**
 * A link shared to the installed app ("Share → svc", the manifest's share_target: GET /share
 * with title, text and url) on its way to a room's add-media form. What was shared is only ever
 * a value: it is checked to be an http(s) URL, never opened, fetched or put into markup, and it
 * lands in the form's field, where the person still decides to add it.
 */
import { signal } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';

export interface SharedLink {
  url: string;
  title: string;
}

/** The add-media form's limits (add-media-form.tsx): a longer title would be refused there. */
const TITLE_MAX = 200;
const URL_MAX = 2048;

/**
 * The link in what an app shared. Android apps often put the address in `text` (beside some
 * words) rather than in `url`, so the first http(s) address of either counts; the title is the
 * shared title, else the text without the address.
 */
export function sharedLinkFrom(params: { title?: string | undefined; text?: string | undefined; url?: string | undefined }): SharedLink | null {
  const text = params.text?.trim() ?? '';
  const url = [params.url?.trim() ?? '', ...text.split(/\s+/)].find(isWebUrl);
  if (!url) return null;
  const title = (params.title?.trim() || text.replace(url, '').trim()).slice(0, TITLE_MAX);
  return { url, title };
}

function isWebUrl(candidate: string): boolean {
  if (candidate.length === 0 || candidate.length > URL_MAX) return false;
  try {
    const parsed = new URL(candidate);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The link chosen for a room (or for the room the person is about to start: roomId null). Page memory only. */
const pending = signal<(SharedLink & { roomId: string | null }) | null>(null);

export function holdSharedLink(link: SharedLink, roomId: string | null): void {
  pending.value = { ...link, roomId };
}

/** Whether a shared link waits for this room (its page then opens on the playlist, where the form is). */
export function sharedLinkWaits(roomId: string): boolean {
  const link = pending.value;
  return link !== null && (link.roomId === null || link.roomId === roomId);
}

/**
 * For the add-media form: the shared link waiting for this room, taken once (a later visit
 * opens an empty form), and a ref that brings the form into view when there was one.
 */
export function useSharedLink(roomId: string): { url: string; title: string; formRef: { current: HTMLFormElement | null } } {
  const [link] = useState(() => {
    if (!sharedLinkWaits(roomId)) return null;
    const taken = pending.value;
    pending.value = null;
    return taken;
  });
  const formRef = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    if (link) formRef.current?.scrollIntoView({ block: 'center' });
  }, [link]);
  return { url: link?.url ?? '', title: link?.title ?? '', formRef };
}
