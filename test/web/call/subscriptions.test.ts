/**
 * What a browser receives from the call and who counts as watching the stage
 * (web/src/call/subscriptions.ts): a member who only watches a share receives the screens and
 * their sound, not the voices or cameras; the viewer count leaves the sharer out.
 */
import test from 'ava';
import { CALL_SOURCES } from '../../../contracts/room/model.js';
import { viewerCount, wantsSource } from '../../../web/src/call/subscriptions.js';

test('watching the stage receives the screens only; being in the call receives everything', (t) => {
  t.deepEqual(
    CALL_SOURCES.filter((source) => wantsSource(source, false)),
    ['screen_share', 'screen_share_audio'],
  );
  t.deepEqual(
    CALL_SOURCES.filter((source) => wantsSource(source, true)),
    [...CALL_SOURCES],
  );
});

test('the viewers of a share are everyone connected but the sharer', (t) => {
  t.is(viewerCount('u_a', ['u_a', 'u_b', 'u_c']), 2);
  t.is(viewerCount('u_a', ['u_a']), 0);
  t.is(viewerCount('u_a', ['u_b', 'u_b', 'u_c']), 2, 'an identity counts once');
});
