import type { ValidationResult } from '../definition.js';
import { describeValue, quote } from './describe-value.js';
import type { IceServer } from '../../contracts/room/model.js';
import { parseHostPort } from './host-port.js';
import { isJsonObject, unknownFieldProblem } from './object-fields.js';

/**
 * `webrtc.externalIceServers`: the ICE servers handed to native clients, in the shape of the
 * WebRTC `RTCIceServer` dictionary with `urls` always an array. URIs follow RFC 7064 (STUN)
 * and RFC 7065 (TURN): `scheme:host[:port]`, and TURN may add `?transport=udp|tcp`.
 */
export type { IceServer } from '../../contracts/room/model.js';

export const ICE_SERVERS_RULE =
  'JSON array of {urls: ["stun:|stuns:|turn:|turns:host[:port]", ...], username?, credential?}; TURN needs username and credential';

const FIELDS = ['urls', 'username', 'credential'] as const;
const URI = /^(stuns?|turns?):([^?]*)(?:\?(.*))?$/;
const TURN_TRANSPORT = /^transport=(udp|tcp)$/;

export function checkIceServers(value: unknown): ValidationResult<IceServer[]> {
  if (!Array.isArray(value)) {
    return { ok: false, message: `must be a JSON array of ICE server objects, got ${describeValue(value)}` };
  }
  const servers: IceServer[] = [];
  for (const [index, entry] of value.entries()) {
    const checked = checkIceServer(entry);
    if (!checked.ok) return { ok: false, message: `element ${index}: ${checked.message}` };
    servers.push(checked.value);
  }
  return { ok: true, value: servers };
}

function checkIceServer(entry: unknown): ValidationResult<IceServer> {
  if (!isJsonObject(entry)) return { ok: false, message: `must be an object, got ${describeValue(entry)}` };
  const unknown = unknownFieldProblem(entry, FIELDS);
  if (unknown !== null) return { ok: false, message: unknown };

  const { urls, username, credential } = entry;
  if (!Array.isArray(urls) || urls.length === 0) {
    return { ok: false, message: `urls must be a non-empty array of STUN/TURN URIs, got ${describeValue(urls)}` };
  }
  let needsCredentials = false;
  for (const [index, url] of urls.entries()) {
    if (typeof url !== 'string') return { ok: false, message: `urls[${index}] must be a string, got ${describeValue(url)}` };
    const problem = uriProblem(url);
    if (problem !== null) return { ok: false, message: `urls[${index}] ${quote(url)} ${problem}` };
    if (url.startsWith('turn')) needsCredentials = true;
  }
  for (const [field, text] of [['username', username], ['credential', credential]] as const) {
    if (text !== undefined && typeof text !== 'string') {
      return { ok: false, message: `${field} must be a string, got ${describeValue(text)}` };
    }
  }
  if (needsCredentials && (typeof username !== 'string' || username === '' || typeof credential !== 'string' || credential === '')) {
    return { ok: false, message: 'turn: and turns: URLs need both a non-empty username and credential' };
  }
  const server: IceServer = { urls: [...(urls as string[])] };
  if (typeof username === 'string') server.username = username;
  if (typeof credential === 'string') server.credential = credential;
  return { ok: true, value: server };
}

function uriProblem(url: string): string | null {
  const match = URI.exec(url);
  if (match === null) return 'must start with stun:, stuns:, turn: or turns:';
  const [, scheme = '', address = '', query] = match;
  if (address.startsWith('//')) return `must be ${scheme}:host[:port], without "//"`;
  if (query !== undefined) {
    if (!scheme.startsWith('turn')) return 'may not have a query; only TURN URIs take ?transport=udp|tcp';
    if (!TURN_TRANSPORT.test(query)) return 'may only have the query ?transport=udp or ?transport=tcp';
  }
  if (/[/#@]/.test(address)) return `must be ${scheme}:host[:port], without path, fragment or user information`;
  const parsed = parseHostPort(address);
  return parsed.ok ? null : `must be ${scheme}:host[:port]: ${parsed.problem}`;
}
