import test from 'ava';
import {
  BUILTIN_ADMIN_PERMISSIONS,
  BUILTIN_GUEST_PERMISSIONS,
  BUILTIN_MEMBER_PERMISSIONS,
  GUEST_PERMISSION_CEILING,
  isWithinGuestCeiling,
} from '../../contracts/permissions/defaults.js';
import { PERMISSIONS, isPermission } from '../../contracts/permissions/names.js';
import { accepts, rejects } from './registry-expect.js';

const GUEST = 'permissions.guestDefaultPermissions';
const PERMISSION_KEYS = ['permissions.adminDefaultPermissions', 'permissions.memberDefaultPermissions', GUEST];
const CEILING_MESSAGE = 'guest permissions may only include view_member_list, view_chat_history, use_webrtc';

test('the permission names are exactly the fifteen of the spec plus publish_livestream (issue 12), vote and create_poll (issue 31), share_screen (issue 42)', (t) => {
  t.deepEqual([...PERMISSIONS].sort(), [
    'control_playback',
    'create_media_resource',
    'create_poll',
    'delete_chat',
    'delete_media_resource',
    'edit_media_resource',
    'edit_room_settings',
    'manage_members',
    'pin_chat',
    'publish_livestream',
    'reorder_media_resources',
    'send_chat',
    'set_current_media',
    'share_screen',
    'use_webrtc',
    'view_chat_history',
    'view_media_resources',
    'view_member_list',
    'vote',
  ]);
  t.is(new Set(PERMISSIONS).size, PERMISSIONS.length);
});

test('isPermission accepts only known names', (t) => {
  for (const name of PERMISSIONS) t.true(isPermission(name), name);
  for (const other of ['SEND_CHAT', 'send_chat ', '', 'admin', 'toString', 1, null, undefined, ['send_chat']]) {
    t.false(isPermission(other), String(other));
  }
});

test('built-in role sets', (t) => {
  t.deepEqual([...BUILTIN_ADMIN_PERMISSIONS], [...PERMISSIONS]);
  t.deepEqual([...BUILTIN_MEMBER_PERMISSIONS].sort(), [
    'control_playback',
    'create_media_resource',
    'send_chat',
    'share_screen',
    'use_webrtc',
    'view_chat_history',
    'view_media_resources',
    'view_member_list',
    'vote',
  ]);
  t.deepEqual([...GUEST_PERMISSION_CEILING].sort(), ['use_webrtc', 'view_chat_history', 'view_member_list']);
  t.deepEqual([...BUILTIN_GUEST_PERMISSIONS], ['view_member_list', 'view_chat_history']);
  t.true(Object.isFrozen(BUILTIN_MEMBER_PERMISSIONS) && Object.isFrozen(GUEST_PERMISSION_CEILING));
});

test('guest ceiling: each of the three names is accepted alone', (t) => {
  for (const name of ['view_member_list', 'view_chat_history', 'use_webrtc']) {
    t.deepEqual(accepts(t, GUEST, [name]), [name]);
  }
});

test('guest ceiling: every other permission is rejected, naming it', (t) => {
  const above = PERMISSIONS.filter((name) => !isWithinGuestCeiling(name));
  t.is(above.length, PERMISSIONS.length - 3);
  for (const name of above) {
    rejects(t, GUEST, [name], `${CEILING_MESSAGE}; "${name}" is above the guest ceiling`);
    // Hidden behind allowed names, too.
    rejects(t, GUEST, ['view_member_list', name, 'use_webrtc'], `"${name}" is above the guest ceiling`);
  }
});

test('guest ceiling does not apply to admin and member defaults', (t) => {
  accepts(t, 'permissions.memberDefaultPermissions', ['send_chat', 'control_playback']);
  accepts(t, 'permissions.adminDefaultPermissions', ['manage_members']);
});

test('permission arrays: shape, unknown names and duplicates', (t) => {
  for (const key of PERMISSION_KEYS) {
    rejects(t, key, 'view_member_list', 'must be a JSON array of permission names, got string');
    rejects(t, key, { view_member_list: true }, 'must be a JSON array of permission names, got an object');
    rejects(t, key, null, 'got null');
    rejects(t, key, ['view_member_list', 'VIEW_MEMBER_LIST'], 'element 1: "VIEW_MEMBER_LIST" is not a permission name');
    rejects(t, key, [null], 'element 0: must be a permission name, got null');
    rejects(t, key, ['use_webrtc', 'view_chat_history', 'use_webrtc'], 'element 2: "use_webrtc" is listed more than once');
  }
});

test('permission arrays keep the written order', (t) => {
  t.deepEqual(accepts(t, 'permissions.memberDefaultPermissions', ['use_webrtc', 'send_chat']), ['use_webrtc', 'send_chat']);
});
