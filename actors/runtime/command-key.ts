/**
 * The key an activation deduplicates a command by: the envelope id together with the caller
 * who sent it. An envelope id alone is chosen (or derived) by whoever sends the command, so
 * keyed by it alone, a second caller sending a known id would get the first caller's
 * remembered reply (a non-member reading a member's answer) or turn the first caller's own
 * later command into a silent repeat. Scoped by caller, a reply only ever goes back to the
 * caller who earned it, and a retry by the same caller still runs once. The key is also what
 * the durable command log records (command-log.ts) and what the actor sees as
 * `meta.commandId`, so actor-level idempotency (a chat message's key) is scoped alike.
 */
import type { CommandEnvelope } from './actor-type.js';

/** JSON of `[userId, id]`: unambiguous whatever characters either holds. */
export function commandKeyOf(envelope: Pick<CommandEnvelope, 'id' | 'caller'>): string {
  return JSON.stringify([envelope.caller.userId, envelope.id]);
}
