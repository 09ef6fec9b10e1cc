import type { Caller as ActorCaller } from '../actors/index.js';
import type { Caller } from './model.js';

/**
 * The caller a gateway asserts to a room actor for an authenticated request. A guest goes as
 * `guest: true` under an id of its own session, so the room holds it to the guest role and the
 * guest permission ceiling whatever it asks for; nobody becomes a `service` caller this way.
 */
export function actorCallerOf(caller: Caller): ActorCaller {
  if (caller.kind === 'guest') return { userId: caller.guestId, name: caller.displayName, guest: true };
  return { userId: caller.userId, name: caller.displayName };
}
