/**
 * What `svc watch` is given: the room link people share (the web client's `/rooms/<id>` page
 * address, web/src/views/rooms/started-room.ts). The command talks to that server only: the
 * link's origin is where sign-in, the room and its media are asked for.
 */
import { AppError } from '../../errors/index.js';

export interface RoomLink {
  /** scheme://host[:port] of the server. */
  origin: string;
  roomId: string;
}

const ROOM_PATH = /^\/rooms\/([^/]+)\/?$/;

export function parseRoomLink(text: string): RoomLink {
  const bad = (why: string): AppError =>
    new AppError('invalid_argument', `"${text.slice(0, 200)}" is not a room link (${why}): copy it from the room's page, like https://watch.example.com/rooms/<room id>`, [
      { key: 'link', message: why },
    ]);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad('not an address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('it must start with https:// or http://');
  if (url.username || url.password) throw bad('it must not hold a user name or password');
  const match = ROOM_PATH.exec(url.pathname);
  if (!match) throw bad('its path is not /rooms/<room id>');
  let roomId: string;
  try {
    roomId = decodeURIComponent(match[1] ?? '');
  } catch {
    throw bad('the room id is not well-formed');
  }
  if (roomId === '' || roomId === 'new') throw bad('it names no room');
  return { origin: url.origin, roomId };
}
