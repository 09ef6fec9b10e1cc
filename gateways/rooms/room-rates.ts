/**
 * Per-member rates of a room's traffic, checked by the gateways before anything reaches the
 * room: room commands per caller per room (chat sends, other commands, reads), and realtime
 * tickets per user (and per address for guests). Counted in Redis so every gateway replica
 * shares one budget, and checked in the gateway rather than in the room actor so a flood is
 * turned away before it costs NATS traffic, a mailbox slot and a turn of the room everyone
 * else is waiting on (docs/2026-11-26-command-ids-and-rates.md).
 *
 * Over a rate the caller gets `rate_limited` with the seconds to wait (HTTP 429 + Retry-After,
 * gRPC RESOURCE_EXHAUSTED + `svc-retry-after-seconds`, a WebSocket error frame with
 * `retryAfterMs`). While Redis cannot be reached each replica counts in memory instead:
 * room traffic goes on with per-replica limits rather than stopping with Redis.
 */
import type { Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { limited } from '../../accounts/index.js';
import { subjectOf, type Caller } from '../../accounts/index.js';
import type { RoomCommandKind } from '../../actors/index.js';
import type { StartupConfig } from '../../config/index.js';
import { AppError } from '../../errors/index.js';

export type RoomRateConfig = StartupConfig['rooms'];

/** Which budget a command counts against. */
export type CommandClass = 'chat' | 'command' | 'read' | 'exempt';

/**
 * Reads answer from the room's memory and change nothing; WebRTC signalling counts with them
 * because a call's set-up sends a burst of ICE candidates to every peer at once.
 */
const READ_KINDS: ReadonlySet<RoomCommandKind> = new Set(['room.get', 'chat.history', 'chat.pins', 'live.authorize', 'voice.signal', 'playlist.playable', 'danmaku.list', 'member.list', 'member.bans']);
/** Sent by the gateway for a connection (WebSocket or WatchRoom), never by a client: a refused leave would leave a ghost. */
const EXEMPT_KINDS: ReadonlySet<RoomCommandKind> = new Set(['presence.enter', 'presence.refresh', 'presence.leave']);

/** Reserve of chat sends beyond `chat_rate` is refilled over this many seconds. */
const CHAT_BURST_WINDOW_SECONDS = 10;
const TICKET_WINDOW_SECONDS = 60;

/**
 * Whatever others see in the chat or over the video counts as chat: a reaction is a small
 * message, and one budget means one documented rate (docs/2026-11-26-reactions-and-danmaku.md).
 */
const CHAT_KINDS: ReadonlySet<RoomCommandKind> = new Set(['chat.send', 'chat.edit', 'chat.react', 'chat.unreact', 'reaction.send', 'danmaku.send']);

export function commandClassOf(kind: RoomCommandKind): CommandClass {
  if (CHAT_KINDS.has(kind)) return 'chat';
  if (READ_KINDS.has(kind)) return 'read';
  if (EXEMPT_KINDS.has(kind)) return 'exempt';
  return 'command';
}

type Limiter = Pick<RateLimiterRedis, 'consume'> | BurstyRateLimiter;

export class RoomRates {
  private readonly commands: Record<Exclude<CommandClass, 'exempt'>, Limiter>;
  private readonly ticketsPerSubject: Limiter;
  private readonly guestTicketsPerAddress: Limiter;

  constructor(redis: Redis, config: RoomRateConfig, prefix = 'svc:rl') {
    const limiter = (name: string, points: number, duration: number): RateLimiterRedis =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${prefix}:${name}`,
        points,
        duration,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${prefix}:${name}`, points, duration }),
      });
    const chat = limiter('room-chat', config.chat_rate, 1);
    const reserve = config.chat_burst - config.chat_rate;
    this.commands = {
      chat: reserve > 0 ? new BurstyRateLimiter(chat, limiter('room-chat-burst', reserve, CHAT_BURST_WINDOW_SECONDS)) : chat,
      command: limiter('room-command', config.command_rate, 1),
      read: limiter('room-read', config.read_rate, 1),
    };
    this.ticketsPerSubject = limiter('ws-ticket', config.ticket_rate, TICKET_WINDOW_SECONDS);
    this.guestTicketsPerAddress = limiter('ws-ticket-guest-ip', config.guest_ticket_rate_per_address, TICKET_WINDOW_SECONDS);
  }

  /** Counts one room command of `caller` in `roomId`; `rate_limited` when over its class's rate. */
  async command(caller: Caller, roomId: string, kind: RoomCommandKind): Promise<void> {
    const kindClass = commandClassOf(kind);
    if (kindClass === 'exempt') return;
    const what = kindClass === 'chat' ? 'chat messages and reactions' : kindClass === 'read' ? 'room reads' : 'room commands';
    await consume(this.commands[kindClass], `${subjectOf(caller)}:${roomId}`, `${what} in this room`);
  }

  /** Counts one realtime ticket of `caller`, and of the address for a guest. */
  async ticket(caller: Caller, address: string): Promise<void> {
    await consume(this.ticketsPerSubject, subjectOf(caller), 'realtime tickets');
    // Guest sessions cost nothing to make, so the address bounds what one client can ask for.
    if (caller.kind === 'guest') await consume(this.guestTicketsPerAddress, address, 'realtime tickets from this address');
  }
}

async function consume(limiter: Limiter, key: string, what: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw limited(what, err.msBeforeNext);
    throw new AppError('unavailable', 'the rate-limit store cannot be reached', [], { cause: err });
  }
}
