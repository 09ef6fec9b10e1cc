/**
 * The `pull` provider: a live stream somewhere else (an RTMP, RTSP or SRT URL, or an HLS
 * playlist) that this server pulls and serves as its own HTTP-FLV and HLS, exactly like a stream
 * published to its RTMP ingest (docs/2026-11-29-pulled-live-streams.md). Playing it hands out the
 * same `/media/live/<grant>/...` links as the `live` provider; the gateway starts the pull when
 * the first of them is requested. Adding an item checks the URL's form (the room) and, when its
 * host is an IP literal, the media proxy's address policy here, so a member learns at once that
 * `rtsp://10.0.0.5/` will not be pulled; a host name is judged when the pull resolves it.
 */
import { pullUrlProblem } from '../../contracts/room/pull-source.js';
import { ROOM_LIMITS } from '../../contracts/room/limits.js';
import { AppError, type FieldIssue } from '../../errors/index.js';
import type { MediaItem } from '../../contracts/room/model.js';
import { ipLiteralOf } from '../live/pull-input.js';
import type { MediaProvider, PlayContext, PlayInfo, Upstream } from '../provider.js';
import { ALLOWED_NETWORKS_KEY, type AddressPolicy } from '../proxy/address-policy.js';
import { liveStreamPlay } from './live.js';

export const PULL_PROVIDER = 'pull';

export class PullProvider implements MediaProvider {
  readonly name = PULL_PROVIDER;
  readonly label = 'Live stream from a URL (RTMP, RTSP, SRT, HLS)';
  readonly proxy = 'never' as const;
  readonly live = true;

  constructor(private readonly policy: AddressPolicy) {}

  check(fields: { url: string }): FieldIssue[] {
    const text = fields.url.trim();
    const problem = pullUrlProblem(text, ROOM_LIMITS.urlMaxChars);
    if (problem !== undefined) return [{ key: 'url', message: problem }];
    const literal = ipLiteralOf(new URL(text).hostname);
    const range = literal === undefined ? undefined : this.policy.refusal(literal);
    if (range === undefined) return [];
    return [{ key: 'url', message: `names ${literal}, a ${range} address this server does not pull from; an operator can allow its network in ${ALLOWED_NETWORKS_KEY}` }];
  }

  resolve(item: MediaItem): Promise<Upstream> {
    return Promise.reject(new AppError('invalid_argument', `media ${item.id} is a live stream this server pulls: play it through the play endpoint, there is no upstream to proxy`));
  }

  play(item: MediaItem, context: PlayContext): Promise<PlayInfo> {
    return Promise.resolve(liveStreamPlay(item, context));
  }
}
