/**
 * The call's notice (web/src/call/call-notices.ts): what a moderator did stays readable through a
 * reconnect; a connection state shows while it lasts and leaves nothing behind.
 */
import test from 'ava';
import { CallNotices } from '../../../web/src/call/call-notices.js';

test('a reconnect right after a moderator stopped the share shows, then gives back, why it stopped', (t) => {
  const notices = new CallNotices();
  notices.happened('alice stopped your share.');
  notices.connection('Reconnecting…');
  t.is(notices.text.value, 'Reconnecting…');
  notices.connection(null);
  t.is(notices.text.value, 'alice stopped your share.');
});

test('something that happens during a reconnect is shown once the connection is back', (t) => {
  const notices = new CallNotices();
  notices.connection('Reconnecting…');
  notices.happened('alice muted you.');
  t.is(notices.text.value, 'Reconnecting…');
  notices.connection('The call lost its server; joining again…');
  t.is(notices.text.value, 'The call lost its server; joining again…');
  notices.connection(null);
  t.is(notices.text.value, 'alice muted you.');
});

test('a connection state alone leaves nothing behind, and a cleared notice stays cleared', (t) => {
  const notices = new CallNotices();
  notices.connection('Reconnecting…');
  notices.connection(null);
  t.is(notices.text.value, '');
  notices.happened('alice muted you.');
  notices.happened('');
  t.is(notices.text.value, '');
});
