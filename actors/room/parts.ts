/**
 * The room's parts, one line each, in the order the core runs their hooks (core.ts `PartHooks`,
 * docs/2026-11-29-room-parts.md). A new concern is its own folder exporting one part, and a line
 * here. The order is behaviour:
 *   - record first: it holds no state, and its commands make the room the others hang on;
 *   - voice and stage before members: a seat or a share ends (voice.left, stage.stopped) before its member is shown offline;
 *   - members before the rest: a change of someone is announced before what follows from it;
 *   - media before playback, polls before playback: the playlist is loaded before playback
 *     checks its current item against it, and a closed account's polls are told before its up-votes;
 *   - live before playback: a stream's status is forgotten before playback stops for its item;
 *   - vote-skip before playback: the new count is told before the ready wait may start a play,
 *     the last consequence of a change;
 *   - moderation, chat and danmaku last: they react to nothing.
 */
import type { RoomCommandKind } from '../../contracts/room/commands.js';
import type { ActorType } from '../runtime/actor-type.js';
import type { RoomActorDeps } from './core.js';
import type { RoomPart } from './part.js';
import { roomActorType } from './room-actor.js';
import { recordPart } from './record/record-part.js';
import { voicePart } from './voice/voice-part.js';
import { stagePart } from './stage/stage-part.js';
import { membersPart } from './members/members-part.js';
import { mediaPart } from './media/media-part.js';
import { livePart } from './live/live-part.js';
import { pollsPart } from './polls/polls-part.js';
import { voteSkipPart } from './vote-skip/vote-skip-part.js';
import { playbackPart } from './playback/playback-part.js';
import { moderationPart } from './moderation/moderation-part.js';
import { chatPart } from './chat/chat-part.js';
import { danmakuPart } from './danmaku/danmaku-part.js';

export const ROOM_PARTS = [
  recordPart,
  voicePart,
  stagePart,
  membersPart,
  mediaPart,
  livePart,
  pollsPart,
  voteSkipPart,
  playbackPart,
  moderationPart,
  chatPart,
  danmakuPart,
] as const;

type KindsOf<P> = P extends RoomPart<infer H> ? keyof H : never;
/** The room command kinds no registered part handles: none, or this file does not compile. */
type Unhandled = Exclude<RoomCommandKind, KindsOf<(typeof ROOM_PARTS)[number]>>;
const _everyKindHandled: [Unhandled] extends [never] ? true : { unhandled: Unhandled } = true;

/** The `room` actor type, to register with an actor host. */
export function createRoomActorType(deps: RoomActorDeps): ActorType {
  return roomActorType(deps, ROOM_PARTS);
}
