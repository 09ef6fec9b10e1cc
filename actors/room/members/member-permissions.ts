/**
 * One member's own permissions on top of their role (docs/2026-11-26-member-permissions.md), as
 * SyncTV has: a moderator gives one trusted member `control_playback`, or takes `send_chat` from
 * one member without changing what everyone of that role may do.
 *
 * Who may: holders of `manage_members`, over the members they may act on at all (never the
 * owner, never themselves, admins only by the owner: checkAuthorityOver), and, unless they are
 * the owner, only changing permissions they hold themselves, the rule of the role overrides
 * (override-authority.ts): a restricted admin cannot arm a member with what they were denied.
 */
import { AppError, type FieldIssue } from '../../../errors/index.js';
import { PERMISSIONS, isAdministration, isPermission, type Permission } from '../../../contracts/permissions/names.js';
import { isWithinGuestCeiling } from '../../../contracts/permissions/defaults.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { MemberPermissionOverride, RoomRole } from '../../../contracts/room/model.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import type { MemberRecord } from '../records.js';
import { upsertMember } from '../room-rows.js';
import { memberView } from '../views.js';
import { checkAuthorityOver } from './member-handlers.js';
import { lackingForChange, memberPermissions } from '../permissions.js';

export async function setMemberPermissions(
  core: RoomCore,
  command: RoomCommandOf<'member.setPermissions'>,
  turn: Turn,
): Promise<RoomResults['member.setPermissions']> {
  const { access } = turn;
  core.require(access, 'manage_members', "changing a member's permissions");
  const target = core.members.get(command.userId);
  if (!target || target.status !== 'active') throw new AppError('not_found', `${command.userId} is not an active member of this room`);
  checkAuthorityOver(core, access, command.userId, target, 'change the permissions of');
  const role: RoomRole = target.guest ? 'guest' : target.role;
  const override = checkMemberOverride(role, command.grant, command.deny);

  const roomOverrides = core.current.options.permissionOverrides;
  const was = memberPermissions(role, roomOverrides, target.permissionOverride, core.deps.settings);
  const will = memberPermissions(role, roomOverrides, override, core.deps.settings);
  if (!access.isOwner && !access.service) {
    const lacking = lackingForChange(was, will, access.permissions);
    if (lacking.length > 0) {
      throw new AppError('forbidden', `you can only give or take away permissions you hold yourself; you lack ${lacking.join(', ')}`);
    }
  }
  if (sameOverride(target.permissionOverride, override)) return { member: memberView(core, target) };

  const { permissionOverride: _dropped, ...rest } = target;
  const updated: MemberRecord = override ? { ...rest, permissionOverride: override } : rest;
  const result = await core.commit(turn, "change a member's permissions", async (client) => {
    await upsertMember(client, core.id, updated);
    return { member: memberView(core, updated) };
  });
  core.members.set(updated.userId, updated);
  core.publish({ type: 'member.updated', member: result.member });
  // Denying use_webrtc ends their voice seat; vote changes who counts for a skip.
  await core.memberChanged(updated);
  return result;
}

/**
 * Checks the lists as a whole (field issues on `grant` or `deny`) and returns them in the
 * canonical order, or undefined when both are empty (the role's permissions alone).
 */
export function checkMemberOverride(role: RoomRole, grant: readonly string[], deny: readonly string[]): MemberPermissionOverride | undefined {
  const issues: FieldIssue[] = [];
  const known = (key: 'grant' | 'deny', list: readonly string[]): Set<Permission> => {
    const unknown = list.filter((name) => !isPermission(name));
    if (unknown.length > 0) issues.push({ key, message: `unknown permission ${unknown.map((name) => `"${name}"`).join(', ')}` });
    return new Set(list.filter(isPermission));
  };
  const grants = known('grant', grant);
  const denials = known('deny', deny);
  const administration = role === 'admin' ? [] : [...grants].filter(isAdministration);
  if (administration.length > 0) issues.push({ key: 'grant', message: `${administration.join(', ')} belong to the admin role; make the user an admin instead` });
  const above = role === 'guest' ? [...grants].filter((name) => !isWithinGuestCeiling(name)) : [];
  if (above.length > 0) issues.push({ key: 'grant', message: `above the guest ceiling: ${above.join(', ')}` });
  const both = [...grants].filter((name) => denials.has(name));
  if (both.length > 0) issues.push({ key: 'deny', message: `${both.join(', ')} cannot be both granted and denied` });
  if (issues.length > 0) throw AppError.invalid(issues);
  if (grants.size === 0 && denials.size === 0) return undefined;
  return { grant: PERMISSIONS.filter((name) => grants.has(name)), deny: PERMISSIONS.filter((name) => denials.has(name)) };
}

function sameOverride(a: MemberPermissionOverride | undefined, b: MemberPermissionOverride | undefined): boolean {
  return (a?.grant.join(',') ?? '') === (b?.grant.join(',') ?? '') && (a?.deny.join(',') ?? '') === (b?.deny.join(',') ?? '');
}
