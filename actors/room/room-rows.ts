/**
 * PostgreSQL access for the records the core holds (migration 0003): the room and its members.
 * Every function takes the client of a transaction opened by `withFence`, so a write from a
 * superseded activation never lands; loading runs inside one too, which claims the fence before
 * reading. Each part keeps the SQL of its own rows in its folder (media/playlist-store.ts, …).
 */
import type pg from 'pg';
import { isPermission, type Permission } from '../../contracts/permissions/names.js';
import { advisoryLockNamespaces } from '../../postgres/index.js';
import { ROOM_LIMITS } from '../../contracts/room/limits.js';
import { displayName } from './validate.js';
import { QUEUE_MODES, ROOM_ROLES, type MemberPermissionOverride, type PermissionOverrides } from '../../contracts/room/model.js';
import { NO_WORD_FILTER, type MemberRecord, type RoomOptions, type RoomRecord } from './records.js';
import { WORD_FILTER_MODES, type WordFilter } from '../../contracts/room/moderation.js';
import { savePlayback, type StoredPlayback } from './playback-rows.js';

type Db = Pick<pg.PoolClient, 'query'>;

/** The room record and its members, as the core loads them. */
export interface LoadedRoom {
  room: RoomRecord;
  members: MemberRecord[];
}

export const DEFAULT_ROOM_OPTIONS: RoomOptions = Object.freeze({
  requireJoinApproval: false,
  permissionOverrides: {},
  waitForAllReady: false,
  readyTimeoutMs: ROOM_LIMITS.readyTimeoutDefaultMs,
  queueMode: 'next',
  voteSkipPercent: 0,
  danmaku: false,
  slowModeSeconds: 0,
  wordFilter: NO_WORD_FILTER,
});

interface RoomRow {
  id: string;
  name: string;
  owner_id: string;
  password_hash: string | null;
  visibility: RoomRecord['visibility'];
  status: RoomRecord['status'];
  settings: unknown;
  created_at: Date;
  updated_at: Date;
}

interface MemberRow {
  user_id: string;
  name: string;
  role: MemberRecord['role'];
  status: MemberRecord['status'];
  guest: boolean;
  joined_at: Date;
  permission_override: unknown;
}

/** Reads `rooms.settings` leniently: unknown or malformed fields fall back to defaults. */
function optionsFromJson(value: unknown): RoomOptions {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const overrides: PermissionOverrides = {};
  const rawOverrides = raw.permissionOverrides;
  if (typeof rawOverrides === 'object' && rawOverrides !== null) {
    for (const role of ROOM_ROLES) {
      const list = (rawOverrides as Record<string, unknown>)[role];
      if (Array.isArray(list)) overrides[role] = list.filter((name): name is Permission => isPermission(name));
    }
  }
  const timeout = raw.readyTimeoutMs;
  return {
    requireJoinApproval: raw.requireJoinApproval === true,
    permissionOverrides: overrides,
    waitForAllReady: raw.waitForAllReady === true,
    readyTimeoutMs:
      typeof timeout === 'number' && timeout >= ROOM_LIMITS.readyTimeoutMinMs && timeout <= ROOM_LIMITS.readyTimeoutMaxMs
        ? timeout
        : ROOM_LIMITS.readyTimeoutDefaultMs,
    queueMode: QUEUE_MODES.find((mode) => mode === raw.queueMode) ?? DEFAULT_ROOM_OPTIONS.queueMode,
    voteSkipPercent: storedPercent(raw.voteSkipPercent),
    danmaku: raw.danmaku === true,
    slowModeSeconds: storedSlowMode(raw.slowModeSeconds),
    wordFilter: storedWordFilter(raw.wordFilter),
  };
}

function storedSlowMode(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= ROOM_LIMITS.slowModeMaxSeconds ? value : 0;
}

/** Stored entries were checked when set; only their shape is checked back. */
function storedWordFilter(value: unknown): WordFilter {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const mode = WORD_FILTER_MODES.find((m) => m === raw.mode);
  const words = Array.isArray(raw.words) ? raw.words.filter((w): w is string => typeof w === 'string' && w.length > 0) : [];
  return mode ? { mode, words } : NO_WORD_FILTER;
}

/** A stored room without the option (or with a value out of range) has vote-skip off. */
function storedPercent(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= ROOM_LIMITS.voteSkipPercentMax ? value : DEFAULT_ROOM_OPTIONS.voteSkipPercent;
}

function roomFromRow(row: RoomRow): RoomRecord {
  return {
    id: row.id,
    name: row.name,
    ownerId: row.owner_id,
    passwordHash: row.password_hash,
    visibility: row.visibility,
    status: row.status,
    options: optionsFromJson(row.settings),
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

/** A stored override with unknown names dropped (a row from a later release or by hand), or none. */
function withOverride(raw: unknown): { permissionOverride?: MemberPermissionOverride } {
  if (typeof raw !== 'object' || raw === null) return {};
  const { grant, deny } = raw as { grant?: unknown; deny?: unknown };
  const names = (list: unknown) => (Array.isArray(list) ? list.filter(isPermission) : []);
  const override = { grant: names(grant), deny: names(deny) };
  return override.grant.length > 0 || override.deny.length > 0 ? { permissionOverride: override } : {};
}

/** The room `id` and its members, or null when no room was created under it. */
export async function loadRoomRecord(db: Db, id: string): Promise<LoadedRoom | null> {
  const rooms = await db.query<RoomRow>('SELECT * FROM rooms WHERE id = $1', [id]);
  const roomRow = rooms.rows[0];
  if (!roomRow) return null;
  // One client runs one query at a time; these are sequential by necessity, not by choice.
  const members = await db.query<MemberRow>(
    'SELECT user_id, name, role, status, guest, joined_at, permission_override FROM room_members WHERE room_id = $1 ORDER BY joined_at, user_id',
    [id],
  );
  return {
    room: roomFromRow(roomRow),
    members: members.rows.map((m) => ({
      userId: m.user_id,
      // Rows written before names were cleaned on the way in get the same treatment on the way out.
      name: displayName(m.name, m.user_id),
      role: m.role,
      status: m.status,
      guest: m.guest,
      joinedAt: m.joined_at.getTime(),
      ...withOverride(m.permission_override),
    })),
  };
}

/** Takes the per-owner lock and counts the rooms that hold a place in the owner's quota. */
export async function lockAndCountOwnedRooms(db: Db, ownerId: string): Promise<number> {
  await db.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [advisoryLockNamespaces.roomOwner, ownerId]);
  // A rejected room stays visible to its owner but no longer counts against the quota.
  const { rows } = await db.query<{ count: string }>(
    "SELECT count(*) FROM rooms WHERE owner_id = $1 AND status <> 'rejected'",
    [ownerId],
  );
  return Number(rows[0]?.count ?? 0);
}

/**
 * Stores a new room with its owner. room.create passes no playback: the playback part writes its
 * first row in the same transaction (playback/playback-part.ts `creating`); a caller storing a
 * whole room by itself (a test's seed) passes the row.
 */
export async function insertRoom(db: Db, room: RoomRecord, owner: MemberRecord, playback?: StoredPlayback): Promise<void> {
  await db.query(
    `INSERT INTO rooms (id, name, owner_id, password_hash, visibility, status, settings, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, to_timestamp($8 / 1000.0), to_timestamp($9 / 1000.0))`,
    [
      room.id,
      room.name,
      room.ownerId,
      room.passwordHash,
      room.visibility,
      room.status,
      JSON.stringify(room.options),
      room.createdAt,
      room.updatedAt,
    ],
  );
  await upsertMember(db, room.id, owner);
  if (playback) await savePlayback(db, room.id, playback);
}

export async function updateRoom(db: Db, room: RoomRecord): Promise<void> {
  await db.query(
    `UPDATE rooms SET name = $2, owner_id = $3, password_hash = $4, visibility = $5, status = $6, settings = $7,
       updated_at = to_timestamp($8 / 1000.0)
     WHERE id = $1`,
    [
      room.id,
      room.name,
      room.ownerId,
      room.passwordHash,
      room.visibility,
      room.status,
      JSON.stringify(room.options),
      room.updatedAt,
    ],
  );
}

/** Removes the room; members, playlist, playback and chat go with it (ON DELETE CASCADE). */
export async function deleteRoom(db: Db, id: string): Promise<void> {
  await db.query('DELETE FROM rooms WHERE id = $1', [id]);
}

export async function upsertMember(db: Db, roomId: string, member: MemberRecord): Promise<void> {
  await db.query(
    `INSERT INTO room_members (room_id, user_id, name, role, status, guest, joined_at, permission_override)
     VALUES ($1, $2, $3, $4, $5, $6, to_timestamp($7 / 1000.0), $8)
     ON CONFLICT (room_id, user_id) DO UPDATE
       SET name = EXCLUDED.name, role = EXCLUDED.role, status = EXCLUDED.status, guest = EXCLUDED.guest,
           joined_at = EXCLUDED.joined_at, permission_override = EXCLUDED.permission_override`,
    [
      roomId,
      member.userId,
      member.name,
      member.role,
      member.status,
      member.guest,
      member.joinedAt,
      member.permissionOverride ? JSON.stringify(member.permissionOverride) : null,
    ],
  );
}

export async function deleteMember(db: Db, roomId: string, userId: string): Promise<void> {
  await db.query('DELETE FROM room_members WHERE room_id = $1 AND user_id = $2', [roomId, userId]);
}
