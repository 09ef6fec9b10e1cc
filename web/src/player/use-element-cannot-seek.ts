/**
 * Whether the page's media element says it cannot seek in what it holds (seek-guard.ts): the
 * room's probe cannot reach every source (a LAN or loopback address the server does not fetch
 * answers `seekable: 'unknown'`), but the browser that plays it knows. Read again whenever the
 * element learns more about its media, and reset when the item changes.
 */
import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { elementCannotSeek } from './seek-guard.js';

const TOLD_BY = ['loadedmetadata', 'durationchange', 'progress', 'emptied'] as const;

export function useElementCannotSeek(element: RefObject<HTMLMediaElement | null>, itemKey: string): boolean {
  const [cannotSeek, setCannotSeek] = useState(false);
  useEffect(() => {
    setCannotSeek(false);
    const video = element.current;
    if (!video) return undefined;
    const read = () => setCannotSeek(elementCannotSeek(video));
    for (const event of TOLD_BY) video.addEventListener(event, read);
    read();
    return () => {
      for (const event of TOLD_BY) video.removeEventListener(event, read);
    };
  }, [element, itemKey]);
  return cannotSeek;
}
