/** What a handler knows of the command it runs besides its body: who sent it, and their standing. */
import type { Permission } from '../../contracts/permissions/names.js';
import type { RoomRole } from '../../contracts/room/model.js';
import type { Caller, CommandMeta } from '../runtime/actor-type.js';
import type { MemberRecord } from './records.js';

/** The caller's standing in this room, computed afresh for every command. */
export interface Access {
  userId: string;
  name: string | undefined;
  service: boolean;
  guest: boolean;
  /** The membership row, whatever its status. */
  member: MemberRecord | undefined;
  isOwner: boolean;
  /** An active member, or a service caller. */
  active: boolean;
  role: RoomRole | null;
  permissions: ReadonlySet<Permission>;
}

export interface Turn {
  caller: Caller;
  meta: CommandMeta;
  access: Access;
  now: number;
}
