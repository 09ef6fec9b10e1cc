/** Who counts as watching a share (web/src/call/viewers.ts): the viewer count leaves the sharer out. */
import test from 'ava';
import { viewerCount } from '../../../web/src/call/viewers.js';

test('the viewers of a share are everyone on the stage but the sharer', (t) => {
  t.is(viewerCount('u_a', ['u_a', 'u_b', 'u_c']), 2);
  t.is(viewerCount('u_a', ['u_a']), 0);
  t.is(viewerCount('u_a', ['u_b', 'u_b', 'u_c']), 2, 'an identity counts once');
});
