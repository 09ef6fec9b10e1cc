/**
 * The RemoteScreen (remote-playback.ts) of the player's <video> element, for as long as the
 * element is there, and its availability and state as a view reads them.
 */
import { useEffect, useState } from 'preact/hooks';
import { RemoteScreen } from './remote-playback.js';

export function useRemoteScreen(video: HTMLVideoElement | null): RemoteScreen | null {
  const [screen, setScreen] = useState<RemoteScreen | null>(null);
  useEffect(() => {
    if (!video) return;
    const created = new RemoteScreen(video);
    setScreen(created);
    return () => {
      created.stop();
      setScreen(null);
    };
  }, [video]);
  return screen;
}
