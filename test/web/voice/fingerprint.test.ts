/**
 * The DTLS fingerprint a voice peer reads from another member's SDP to tell a new connection
 * from a renegotiation (web/src/voice/peer.ts). The SDP is another member's text, up to
 * ROOM_LIMITS.voiceSdpMaxChars: the line is read without backtracking (lint's regexp rules keep
 * it so), and a crafted line of that size is read like any other.
 */
import test from 'ava';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import { fingerprintOf } from '../../../web/src/voice/sdp-fingerprint.js';

const SDP = [
  'v=0',
  'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=fingerprint:sha-256 7B:8B:F0:65:5F:78:E2:51:3B:AC:6F:F3:3F:46:1B:35:DC:B8:5F:64:1A:24:C2:43:F0:A1:58:D0:A1:2C:19:08 ',
  'a=setup:actpass',
  '',
].join('\r\n');

test('the fingerprint line of an SDP, without its trailing spaces', (t) => {
  t.is(fingerprintOf(SDP), 'sha-256 7B:8B:F0:65:5F:78:E2:51:3B:AC:6F:F3:3F:46:1B:35:DC:B8:5F:64:1A:24:C2:43:F0:A1:58:D0:A1:2C:19:08');
  t.is(fingerprintOf('v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n'), undefined);
  t.is(fingerprintOf('a=fingerprint:   \r\n'), undefined);
  t.is(fingerprintOf(undefined), undefined);
});

test('a crafted line as long as a member may send is read as the value it holds', (t) => {
  const padding = ' '.repeat(ROOM_LIMITS.voiceSdpMaxChars - 40);
  t.is(fingerprintOf(`v=0\r\na=fingerprint:${padding}x\r\n`), 'x');
  t.is(fingerprintOf(`v=0\na=fingerprint:sha-256 AB${padding}\n`), 'sha-256 AB');
});
