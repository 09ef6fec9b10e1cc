/**
 * Picture-in-picture with the chat (the Document Picture-in-Picture API, desktop Chromium): an
 * always-on-top window holding the room's <video> element itself, moved there, and whatever the
 * caller renders under it (the chat). Moving the element keeps it playing and keeps PlayerSync
 * driving it; on close it goes back where it was. The window gets the page's stylesheets, so
 * what is rendered there looks as in the page, in light and dark.
 */

interface DocumentPipApi {
  readonly window: Window | null;
  requestWindow(options?: { width?: number; height?: number }): Promise<Window>;
}

const api = (): DocumentPipApi | undefined => (window as { documentPictureInPicture?: DocumentPipApi }).documentPictureInPicture;

/** Whether this browser has Document picture-in-picture (desktop Chromium 116 and later). */
export const documentPipSupported = (): boolean => api() !== undefined;

/** The window's size: a small video over a chat column. */
const SIZE = { width: 400, height: 640 };

export interface DocumentPipWindow {
  /** Closes the window (the video goes back by the window's pagehide). */
  close(): void;
}

/**
 * Opens the window (call from a click: it needs a user gesture) with `video` in its top part and
 * `fill` rendering into the part below (returns how to undo it). `onClose` runs once the window
 * closed, by the viewer or by `close()`, after the video is back in the page.
 */
export async function openDocumentPip(video: HTMLVideoElement, fill: (host: HTMLElement) => () => void, onClose: () => void): Promise<DocumentPipWindow> {
  const pip = api();
  if (!pip) throw new DOMException('Document picture-in-picture is not available', 'NotSupportedError');
  const opened = await pip.requestWindow(SIZE);
  const doc = opened.document;
  doc.documentElement.lang = document.documentElement.lang;
  for (const node of document.head.querySelectorAll('link[rel="stylesheet"], style, meta[name="color-scheme"]')) doc.head.append(node.cloneNode(true));
  doc.title = document.title;
  const layout = doc.createElement('main');
  layout.className = 'pip-window';
  const stage = doc.createElement('div');
  stage.className = 'pip-window-video';
  const below = doc.createElement('div');
  below.className = 'pip-window-chat';
  layout.append(stage, below);
  doc.body.append(layout);

  // Where the element lives in the page, to put it back exactly there.
  const parent = video.parentNode;
  const next = video.nextSibling;
  stage.append(video);
  const unfill = fill(below);
  opened.addEventListener(
    'pagehide',
    () => {
      unfill();
      if (parent) parent.insertBefore(video, next && next.parentNode === parent ? next : null);
      onClose();
    },
    { once: true },
  );
  return { close: () => opened.close() };
}
