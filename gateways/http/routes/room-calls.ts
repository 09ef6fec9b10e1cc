/** What room routes share: room.get views narrowed to what an endpoint answers. */
import type { MemberRoomView, RoomView } from '../../../contracts/room/model.js';
import { AppError } from '../../../errors/index.js';

/** The member view of a room, or `forbidden` for someone who is not an active member. */
export function memberView(view: RoomView): MemberRoomView {
  if (view.access === 'member') return view;
  const standing = view.me.status === 'pending' ? 'your join request is waiting for approval' : 'join the room first';
  throw new AppError('forbidden', `only active members can see this; ${standing}`);
}

/** A part of the member view that needs a permission, or `forbidden` naming it. */
export function requirePart<T>(part: T | undefined, permission: string): T {
  if (part === undefined) throw new AppError('forbidden', `this needs the ${permission} permission in this room`);
  return part;
}
