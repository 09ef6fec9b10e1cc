/**
 * The call endpoints of contracts/http/call.ts (docs/2026-11-29-sfu.md). `joinCall` asks the
 * room whether the caller may enter the stage or the call and what they may publish there
 * (`call.admit`, a command only gateways send: it is the room's to decide, like
 * `playlist.playable` for the play endpoint), makes sure that SFU room exists with its
 * participant cap, and signs a LiveKit token for it with exactly those sources. The
 * stage and the moderator's mute are plain room commands.
 */
import { subjectOf } from '../../../accounts/index.js';
import * as api from '../../../contracts/http/call.js';
import { AppError } from '../../../errors/index.js';
import { sfuRoomName, signCallToken } from '../../../sfu/index.js';
import { iceServerSource } from '../../../webrtc/index.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import { checkRoomId } from '../../rooms/command-entry.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { roomCommand, type RoomRoute } from '../room-command-route.js';

export const NO_SFU = 'this server has no SFU (startup key sfu.url), so it has no screen sharing, cameras or large calls; voice runs between browsers';

export function mountCallRoutes(router: EndpointRouter, deps: GatewayDeps): void {
  // The service's own STUN and TURN (with credentials for the caller), as voice gets them; the
  // operator's webrtc.externalIceServers are the browser's own business in a mesh, not the SFU's.
  const iceServers = iceServerSource(deps.config);
  router.mount(api.joinCall, async (ctx, { caller, params, body }) => {
    const sfu = deps.sfu;
    if (!sfu) throw new AppError('unavailable', NO_SFU);
    checkRoomId(params.roomId);
    const { part } = body;
    const { result } = await deps.rooms.send(params.roomId, { kind: 'call.admit', part }, caller, ctx.state.trace ? { trace: ctx.state.trace } : {});
    await sfu.rooms.ensureRoom(sfuRoomName(sfu.config.prefix, params.roomId, part), deps.settings.get('sfu.maxParticipantsPerRoom'));
    const { token, expiresAt } = await signCallToken(sfu.config, {
      roomId: params.roomId,
      part,
      identity: result.identity,
      name: result.name,
      sources: result.sources,
      sessionId: caller.sessionId,
      guest: caller.kind === 'guest',
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      url: sfu.config.publicUrl,
      part,
      token,
      expiresAt,
      identity: result.identity,
      sources: result.sources,
      moderator: result.moderator,
      iceServers: iceServers(subjectOf(caller), []),
      limits: {
        memberKbps: deps.settings.get('sfu.memberMaxKbps'),
        shareKbps: deps.settings.get('sfu.shareMaxKbps'),
        cameraKbps: deps.settings.get('sfu.cameraMaxKbps'),
      },
      ...(result.cameraRefused !== undefined ? { cameraRefused: result.cameraRefused } : {}),
    };
  });
}

export const CALL_ROUTES: readonly RoomRoute[] = [
  roomCommand(api.startShare, 'stage.start', { command: ({ body }) => body, answer: (result, seq) => ({ share: result.share, seq }), status: 201 }),
  roomCommand(api.stopShare, 'stage.stop', { command: ({ params }) => ({ userId: params.userId }), answer: (result, seq) => ({ stopped: result.stopped, seq }) }),
  roomCommand(api.muteInCall, 'call.mute', { command: ({ body }) => body, answer: (result, seq) => ({ muted: result.muted, seq }) }),
];
