/**
 * The reply of a durable command, recorded as the runtime answers it live: an actor hands
 * the runtime its result, never an encoded reply, so the live answer and the one a retry
 * gets from the command log (command-log.ts) are one value.
 */
import type { CommandMeta } from './actor-type.js';
import { recordCommand } from './command-log.js';
import type { Fence } from './fencing.js';
import { encode, resultReply } from './wire.js';

type Db = Parameters<typeof recordCommand>[0];

/**
 * Records `result` as the reply of the command `meta` describes: call it in the command's
 * fenced transaction, with the event seq as of the commit (the command's own events follow
 * it). A scheduled command has no caller to retry it, so nothing is recorded. Throws
 * CommandAlreadyApplied like recordCommand.
 */
export async function recordResult(db: Db, fence: Fence, meta: CommandMeta, result: unknown, seq: number): Promise<void> {
  if (meta.scheduled === true) return;
  await recordCommand(db, fence, { commandId: meta.commandId, deadline: meta.deadline, reply: encode(resultReply(result, seq)) });
}
