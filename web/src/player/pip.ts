/**
 * The video's own picture-in-picture: the <video> element in a small always-on-top window of the
 * browser, which stays while the viewer switches tabs or apps. Nothing about the sync changes:
 * the element is the same, and PlayerSync keeps driving it. What does change while the page is
 * hidden is where its clock comes from: Chromium stops the page's rendering, so
 * requestVideoFrameCallback stops firing even though the picture-in-picture window shows frames,
 * and PlayerSync's timer takes over (it ticks the engine with `currentTime` once no frame came
 * for 120 ms, which the engine trusts once no frame came for 1 s): corrections go on, by seeking
 * and by rate, at the timer's pace (docs/2026-11-29-pip-lock-screen-cast.md).
 */
import { useEffect, useState } from 'preact/hooks';

export interface PictureInPicture {
  /** The browser offers the video's picture-in-picture for this element. */
  supported: boolean;
  /** The element is in picture-in-picture now. */
  active: boolean;
  /** Enters or leaves it (call from a click: entering needs a user gesture); rejects when the browser refuses. */
  toggle(): Promise<void>;
}

export function usePictureInPicture(video: HTMLVideoElement | null): PictureInPicture {
  const [active, setActive] = useState(false);
  useEffect(() => {
    if (!video) return;
    const update = (): void => setActive(document.pictureInPictureElement === video);
    update();
    video.addEventListener('enterpictureinpicture', update);
    video.addEventListener('leavepictureinpicture', update);
    return () => {
      video.removeEventListener('enterpictureinpicture', update);
      video.removeEventListener('leavepictureinpicture', update);
      // The player goes (the room is left): its picture-in-picture window goes with it.
      if (document.pictureInPictureElement === video) void document.exitPictureInPicture().catch(() => undefined);
    };
  }, [video]);
  const supported = video !== null && document.pictureInPictureEnabled === true && !video.disablePictureInPicture;
  return {
    supported,
    active,
    async toggle() {
      if (!video) return;
      if (document.pictureInPictureElement === video) await document.exitPictureInPicture();
      else await video.requestPictureInPicture();
    },
  };
}
