/**
 * How ffmpeg reads a pulled live stream (provider `pull`, docs/2026-11-29-pulled-live-streams.md).
 * The URL is a member's: its host is resolved here and every address judged by the media
 * proxy's `AddressPolicy` (`media_proxy.allowed_networks`), and ffmpeg is handed the URL with the
 * checked IP literal in place of the name, so it makes no DNS lookup of its own that could answer
 * differently (rebinding). Where the protocol carries the name, it is kept: RTMP's tcUrl
 * (`-rtmp_tcurl`), TLS's server name and certificate check (`-verifyhost`). Each scheme gets its
 * demuxer forced (`-f`) and its protocols listed (`-protocol_whitelist`, `-format_whitelist`),
 * so nothing the source says can make ffmpeg open a file, another protocol or another demuxer.
 * An HLS playlist (http, https) is not given to ffmpeg at all: its HLS demuxer would fetch
 * segments from any host a playlist names. The gateway reads it with the checked upstream
 * client instead (hls-feed.ts) and pipes the MPEG-TS segments to ffmpeg's stdin.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { redactPullUrl, type PullScheme } from '../../contracts/room/pull-source.js';
import { AppError } from '../../errors/index.js';
import type { AddressPolicy } from '../proxy/address-policy.js';
import { openRtspGuard, type RtspGuard } from './rtsp-guard.js';

export interface PullInput {
  scheme: PullScheme;
  /** ffmpeg's input options up to and including `-i <url>`. */
  args: string[];
  /** The URL as logs may show it (no password). */
  shown: string;
  /** Set for an HLS source: the playlist the gateway reads itself and pipes to ffmpeg as MPEG-TS. */
  hlsPlaylist?: string;
  /** Strings of the URL that are secret (user name, password, SRT passphrase): removed from anything logged. */
  secrets: string[];
  /** For RTSP: the loopback guard ffmpeg reads through (./rtsp-guard.ts); closed with the pull. */
  guard?: RtspGuard;
}

const RTSP_PORT = 554;

export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Socket I/O and connection wait of ffmpeg's reads, in microseconds. */
const IO_TIMEOUT_US = '10000000';

/** The error of a URL that cannot be pulled, naming the field. */
export function pullRefusal(code: 'forbidden' | 'invalid_argument' | 'bad_gateway', message: string): AppError {
  return new AppError(code, `url: ${message}`, [{ key: 'url', message }]);
}

/** The literal of `host` when it is an IP address (brackets removed), else undefined. */
export function ipLiteralOf(host: string): string | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIP(bare) === 0 ? undefined : bare;
}

/** The addresses ffmpeg may connect to for `host`: resolved once, each judged by the policy; the first is used. */
async function checkedAddress(host: string, policy: AddressPolicy, lookup: Lookup): Promise<string> {
  const literal = ipLiteralOf(host);
  let addresses: string[];
  if (literal !== undefined) addresses = [literal];
  else {
    try {
      addresses = (await lookup(host)).map((entry) => entry.address);
    } catch (err) {
      throw pullRefusal('bad_gateway', `the host ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'DNS error'})`);
    }
    if (addresses.length === 0) throw pullRefusal('bad_gateway', `the host ${host} has no address`);
  }
  for (const address of addresses) {
    const range = policy.refusal(address);
    if (range !== undefined) {
      const shown = literal !== undefined ? address : `${host} (${address})`;
      throw pullRefusal('forbidden', `this server does not pull from ${shown}: it is a ${range} address; an operator can allow its network in media_proxy.allowed_networks`);
    }
  }
  return addresses[0]!;
}

/** `url` with its host replaced by `address` (bracketed when IPv6), and its port by `port` if given; everything else as it was. */
function pinned(url: URL, scheme: string, address: string, search: string, port = url.port): string {
  const host = address.includes(':') ? `[${address}]` : address;
  const user = url.username === '' && url.password === '' ? '' : `${url.username}${url.password === '' ? '' : `:${url.password}`}@`;
  const portPart = port === '' ? '' : `:${port}`;
  return `${scheme}://${user}${host}${portPart}${url.pathname}${search}`;
}

/** The checked way for ffmpeg to read `text` (a URL whose form the room accepted). */
export async function pullInput(text: string, policy: AddressPolicy, lookup: Lookup = systemLookup): Promise<PullInput> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw pullRefusal('invalid_argument', 'is not a URL');
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase() as PullScheme;
  const shown = redactPullUrl(text);
  const secrets = [url.username, url.password, url.searchParams.get('passphrase') ?? ''].filter((part) => part.length >= 3).flatMap((part) => [part, decodeURIComponent(part)]);
  if (scheme === 'http' || scheme === 'https') {
    // Checked hop by hop by the upstream client as it reads (redirects and segment hosts included).
    return { scheme, args: ['-protocol_whitelist', 'pipe', '-format_whitelist', 'mpegts', '-f', 'mpegts', '-i', 'pipe:0'], shown, hlsPlaylist: url.href, secrets };
  }
  const address = await checkedAddress(url.hostname, policy, lookup);
  const tls = scheme === 'rtmps';
  const name = ipLiteralOf(url.hostname) === undefined ? url.hostname : undefined;
  // TLS to an IP literal: the certificate check and the server name (SNI) still use the name given.
  const verifyHost = tls && name !== undefined ? ['-verifyhost', name] : [];
  switch (scheme) {
    case 'rtsp': {
      // Through the guard, which never lets ffmpeg see a redirect to an unchecked host.
      const guard = await openRtspGuard(address, url.port === '' ? RTSP_PORT : Number(url.port));
      return {
        scheme,
        args: [
          '-protocol_whitelist', 'rtsp,tcp',
          '-format_whitelist', 'rtsp',
          // Interleaved over the one TCP connection: no UDP ports opened towards the source.
          '-rtsp_transport', 'tcp',
          '-timeout', IO_TIMEOUT_US,
          '-f', 'rtsp',
          '-i', pinned(url, scheme, '127.0.0.1', '', String(guard.port)),
        ],
        shown,
        secrets,
        guard,
      };
    }
    case 'rtmp':
    case 'rtmps': {
      const app = url.pathname.split('/').filter((part) => part !== '')[0] ?? '';
      const tcUrl = `${scheme}://${url.host}/${app}`;
      return {
        scheme,
        args: [
          '-protocol_whitelist', tls ? 'rtmps,tcp,tls' : 'rtmp,tcp',
          '-format_whitelist', 'flv',
          ...verifyHost,
          '-rw_timeout', IO_TIMEOUT_US,
          '-rtmp_tcurl', tcUrl,
          '-rtmp_live', 'live',
          '-f', 'flv',
          '-i', pinned(url, scheme, address, ''),
        ],
        shown,
        secrets,
      };
    }
    case 'srt': {
      // Only the options the room allowed, and always as caller (never listener).
      const query = new URLSearchParams();
      query.set('mode', 'caller');
      for (const [key, value] of url.searchParams) if (key !== 'mode') query.set(key, value);
      return {
        scheme,
        args: ['-protocol_whitelist', 'srt', '-format_whitelist', 'mpegts', '-rw_timeout', IO_TIMEOUT_US, '-f', 'mpegts', '-i', pinned(url, scheme, address, `?${query.toString()}`)],
        shown,
        secrets,
      };
    }
    default:
      throw pullRefusal('invalid_argument', `the scheme ${String(scheme).slice(0, 20)} cannot be pulled`);
  }
}
