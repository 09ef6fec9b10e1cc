/** The room's check of an incoming command against its contract (contracts/room/commands.ts). */
import { isRoomCommandKind, ROOM_COMMAND_SCHEMAS, type RoomCommand } from '../../contracts/room/commands.js';
import { AppError } from '../../errors/index.js';
import { fieldIssuesOf } from '../../errors/index.js';

/** Checks the shape of an incoming command; throws `invalid_argument` naming every bad field. */
export function parseRoomCommand(raw: unknown): RoomCommand {
  const kind = typeof raw === 'object' && raw !== null ? (raw as { kind?: unknown }).kind : undefined;
  if (!isRoomCommandKind(kind)) {
    throw AppError.invalid([{ key: 'kind', message: typeof kind === 'string' ? `unknown room command "${kind.slice(0, 64)}"` : 'is required' }]);
  }
  const parsed = ROOM_COMMAND_SCHEMAS[kind].safeParse(raw);
  if (!parsed.success) throw AppError.invalid(fieldIssuesOf(parsed.error.issues, '', 'command'));
  return parsed.data;
}
