/**
 * Shared by the SFU call's browser tests (stage.test.ts, call.test.ts): a room with members
 * opened in their own browser contexts, and waits on what a <video> plays.
 */
import type { Page } from 'playwright-core';
import type { Member } from '../../gateways/bed.js';
import { signInPage, waitForPage, type Person, type WebBed } from './browser.js';

/** A room owned by the first member, the others joined. */
export async function roomWith(bed: WebBed, name: string, owner: Member, others: Member[]): Promise<string> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name }, owner.token);
  const roomId = created.body.room.id;
  for (const member of others) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  return roomId;
}

/** Every RTCPeerConnection the page makes, kept in `window.__callPeers` where a test reads its stats. */
export const RECORD_PEERS = `
  (() => {
    const Native = window.RTCPeerConnection;
    window.__callPeers = [];
    window.RTCPeerConnection = class extends Native {
      constructor(...args) { super(...args); window.__callPeers.push(this); }
    };
  })();
`;

/** Every track the page captures (getUserMedia), kept in `window.__captured`. */
export const RECORD_CAPTURES = `
  (() => {
    window.__captured = [];
    const devices = navigator.mediaDevices;
    const native = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (...args) => { const stream = await native(...args); window.__captured.push(...stream.getTracks()); return stream; };
  })();
`;

/** The member signed in, in their own context, on the room's page; `init` runs first in every page. */
export async function openRoom(bed: WebBed, member: Member, roomId: string, init?: string, options: Parameters<WebBed['person']>[0] = {}): Promise<Person> {
  const person = await bed.person(options);
  if (init) await person.context.addInitScript({ content: init });
  await signInPage(person.page, member.username);
  await person.page.goto(`/rooms/${roomId}`);
  return person;
}

/**
 * Waits until the video matched by `selector` shows a picture (videoWidth > 0) and then keeps
 * decoding new frames: a frozen or black-holed track would stop the count.
 */
export async function framesAdvance(page: Page, selector: string, timeoutMs = 30_000): Promise<void> {
  const frames = `(() => { const v = document.querySelector(${JSON.stringify(selector)}); return v && v.videoWidth > 0 ? v.getVideoPlaybackQuality().totalVideoFrames : -1; })()`;
  await waitForPage(page, `${frames} > 0`, timeoutMs);
  const first = (await page.evaluate<number>(frames));
  await waitForPage(page, `${frames} > ${first + 5}`, timeoutMs);
}
