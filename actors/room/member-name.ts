/** A member's name follows their display name (chat sends and opened connections rename them). */
import type { Access, RoomCore } from './core.js';
import type { MemberRecord } from './records.js';
import { upsertMember } from './room-rows.js';
import { displayName } from './validate.js';
import { memberView } from './views.js';

/**
 * A member's name follows their display name (docs/2026-11-26-profiles-and-accounts.md): the
 * gateway sends the caller's current name with every command, and a member who renamed
 * themselves since joining is renamed here, from their next chat message or page open on. Only
 * written when it changed; not part of the command's recorded result (a retry renames again,
 * harmlessly). Returns the member as it is now.
 */
export async function followDisplayName(core: RoomCore, access: Access): Promise<MemberRecord | undefined> {
  const member = access.member;
  if (!member || member.status !== 'active' || access.service || access.name === undefined) return member;
  const name = displayName(access.name, access.userId);
  if (name === member.name) return member;
  const renamed: MemberRecord = { ...member, name };
  await core.durable('rename the member', (client) => upsertMember(client, core.id, renamed));
  core.members.set(renamed.userId, renamed);
  core.publish({ type: 'member.updated', member: memberView(core, renamed) });
  return renamed;
}
