/**
 * The room of bench:sync: members of a web bed in one room with the test video current, and
 * their pages (each a fresh browser context, signed in, with the sync debug stats on).
 */
import type { Page } from 'playwright-core';
import type { Member } from '../test/gateways/bed.js';
import { signInPage, VIEWPORTS, type Person, type WebBed } from '../test/web/e2e/browser.js';
import type { MediaServer } from '../test/web/e2e/media.js';
import { wallNow } from './sync-frames.js';
import { PAUSE_TRACE, recordPauseEvents } from './sync-pause-trace.js';

export interface BenchRoom {
  bed: WebBed;
  roomId: string;
  members: Member[];
  media: MediaServer;
  people: Person[];
}

/**
 * Size of every bench page (BENCH_VIEWPORT, `phone` or `desktop`). Phone-sized by default: the
 * five pages share this machine's cores and one GPU process, which composites every page in
 * software; at desktop size that process took 80 % of a core at 60 fps (22 % phone-sized) and
 * delayed what the pages measure. A viewer's page draws on its own device.
 */
export const BENCH_VIEWPORT: keyof typeof VIEWPORTS = process.env.BENCH_VIEWPORT === 'desktop' ? 'desktop' : 'phone';

const ONE_WAY_MS = 100;
export const JITTER_MS = 30;

/** A new room owned by the first member, the others joined, `file` of the media server current (paused at 0); no pages yet. */
export async function newRoom(bed: WebBed, members: Member[], media: MediaServer, file: string): Promise<BenchRoom> {
  const owner = members[0]!;
  const roomId = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Bench' }, owner.token)).body.room.id;
  for (const member of members.slice(1)) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  const item = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Clock', url: media.url(file) }, owner.token);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: item.body.item.id }, owner.token);
  return { bed, roomId, members, media, people: [] };
}

/**
 * A signed-in page that opens the room; `openedAt` is the wall instant it started loading the
 * room page. `delayed`: its socket behind an emulated 200 ms round trip with jitter.
 */
export async function open(room: BenchRoom, member: Member, delayed = false): Promise<{ person: Person; openedAt: number }> {
  const person = await room.bed.person({ allowHosts: [room.media.host], viewport: BENCH_VIEWPORT });
  if (delayed) await delaySocket(person.page);
  if (PAUSE_TRACE) await recordPauseEvents(person.page);
  await signInPage(person.page, member.username);
  await person.page.evaluate(`localStorage.setItem('svc.debug.sync', '1')`);
  const openedAt = await wallNow(person.page);
  await person.page.goto(`/rooms/${room.roomId}`);
  await person.page.getByRole('button', { name: 'Fullscreen' }).waitFor();
  return { person, openedAt };
}

/** Closes every page of the room. */
export async function closeAll(room: BenchRoom): Promise<void> {
  await Promise.allSettled(room.people.map((person) => person.context.close()));
  room.people = [];
}

/**
 * Every frame of the page's room socket, both ways, ONE_WAY_MS ± JITTER_MS late, in order. Its
 * socket is routed through Playwright (`page.routeWebSocket`): CDP network emulation does not
 * reliably delay WebSocket frames.
 */
/** A close handed on with what the other side gave (an absent code or reason stays absent). */
function closeInit(code: number | undefined, reason: string | undefined): { code?: number; reason?: string } {
  return { ...(code !== undefined ? { code } : {}), ...(reason !== undefined ? { reason } : {}) };
}

async function delaySocket(page: Page): Promise<void> {
  await page.routeWebSocket(/\/realtime/, (socket) => {
    const server = socket.connectToServer();
    const lane = (): ((send: () => void) => void) => {
      let last = 0;
      return (send) => {
        const at = Math.max(last, Date.now() + ONE_WAY_MS + (Math.random() * 2 - 1) * JITTER_MS);
        last = at;
        setTimeout(send, at - Date.now());
      };
    };
    const up = lane();
    const down = lane();
    socket.onMessage((message) => up(() => server.send(message)));
    server.onMessage((message) => down(() => socket.send(message)));
    socket.onClose((code, reason) => server.close(closeInit(code, reason)));
    server.onClose((code, reason) => socket.close(closeInit(code, reason)));
  });
}
