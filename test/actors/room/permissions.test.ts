import test from 'ava';
import type { TestRoom } from './fixtures.js';
import { RoomTestBed, addMember, guest, media, rejects, service, uid, user } from './fixtures.js';
import { GUEST_PERMISSION_CEILING } from '../../../contracts/permissions/defaults.js';
import { PERMISSIONS, isAdministration, type Permission } from '../../../contracts/permissions/names.js';
import type { Caller } from '../../../actors/runtime/actor-type.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_permissions');
});

test.after.always(async () => {
  await bed?.close();
});

interface Scene {
  room: TestRoom;
  owner: Caller;
  member: Caller;
  /** Someone else in the room, for commands that act on another member. */
  other: Caller;
  ids: string[];
}

interface Rule {
  permission: Permission;
  what: string;
  setup?: (scene: Scene) => Promise<void>;
  run: (scene: Scene) => Promise<unknown>;
}

const push = async (s: Scene, title: string) => {
  const { item } = await s.room.send(s.owner, { kind: 'playlist.push', ...media(title) });
  s.ids.push(item.id);
};
const ownerMessage = async (s: Scene) => {
  const { message } = await s.room.send(s.owner, { kind: 'chat.send', text: 'from the owner' });
  s.ids.push(message.id);
};
const playing = async (s: Scene) => {
  await push(s, 'A');
  await s.room.send(s.owner, { kind: 'playlist.setCurrent', mediaId: s.ids[0] as string });
};
const otherPending = async (s: Scene) => {
  await s.room.send(s.owner, { kind: 'room.update', requireJoinApproval: true });
  await s.room.send(s.other, { kind: 'member.join' });
};
const otherMember = async (s: Scene) => {
  await s.room.send(s.other, { kind: 'member.join' });
};
const id = (s: Scene, i = 0) => s.ids[i] as string;

/** Every command that needs a permission, acted out by a plain member. */
const RULES: Rule[] = [
  { permission: 'send_chat', what: 'chat.send', run: (s) => s.room.send(s.member, { kind: 'chat.send', text: 'hello' }) },
  { permission: 'send_chat', what: 'chat.react', setup: ownerMessage, run: (s) => s.room.send(s.member, { kind: 'chat.react', messageId: id(s), reaction: 'heart' }) },
  { permission: 'send_chat', what: 'reaction.send', run: (s) => s.room.send(s.member, { kind: 'reaction.send', reaction: 'fire' }) },
  { permission: 'view_chat_history', what: 'chat.history', run: (s) => s.room.send(s.member, { kind: 'chat.history' }) },
  { permission: 'manage_members', what: 'member.setPermissions', setup: otherMember, run: (s) => s.room.send(s.member, { kind: 'member.setPermissions', userId: s.other.userId, grant: [], deny: [] }) },
  { permission: 'view_chat_history', what: 'chat.pins', run: (s) => s.room.send(s.member, { kind: 'chat.pins' }) },
  { permission: 'pin_chat', what: 'chat.pin', setup: ownerMessage, run: (s) => s.room.send(s.member, { kind: 'chat.pin', messageId: id(s) }) },
  {
    permission: 'pin_chat',
    what: 'chat.unpin',
    setup: async (s) => {
      await ownerMessage(s);
      await s.room.send(s.owner, { kind: 'chat.pin', messageId: id(s) });
    },
    run: (s) => s.room.send(s.member, { kind: 'chat.unpin', messageId: id(s) }),
  },
  {
    permission: 'delete_chat',
    what: "chat.delete of someone else's message",
    setup: ownerMessage,
    run: (s) => s.room.send(s.member, { kind: 'chat.delete', messageId: id(s) }),
  },
  { permission: 'manage_members', what: 'member.approve', setup: otherPending, run: (s) => s.room.send(s.member, { kind: 'member.approve', userId: s.other.userId }) },
  { permission: 'manage_members', what: 'member.reject', setup: otherPending, run: (s) => s.room.send(s.member, { kind: 'member.reject', userId: s.other.userId }) },
  { permission: 'manage_members', what: 'member.kick', setup: otherMember, run: (s) => s.room.send(s.member, { kind: 'member.kick', userId: s.other.userId }) },
  { permission: 'manage_members', what: 'member.ban', run: (s) => s.room.send(s.member, { kind: 'member.ban', userId: s.other.userId }) },
  {
    permission: 'manage_members',
    what: 'member.unban',
    setup: (s) => s.room.send(s.owner, { kind: 'member.ban', userId: s.other.userId }).then(() => undefined),
    run: (s) => s.room.send(s.member, { kind: 'member.unban', userId: s.other.userId }),
  },
  {
    permission: 'manage_members',
    what: 'member.setRole',
    setup: otherMember,
    run: (s) => s.room.send(s.member, { kind: 'member.setRole', userId: s.other.userId, role: 'guest' }),
  },
  { permission: 'create_media_resource', what: 'playlist.push', run: (s) => s.room.send(s.member, { kind: 'playlist.push', ...media('Mine') }) },
  { permission: 'create_media_resource', what: 'playlist.insert', run: (s) => s.room.send(s.member, { kind: 'playlist.insert', index: 0, ...media('Mine') }) },
  {
    permission: 'edit_media_resource',
    what: "playlist.edit of someone else's item",
    setup: (s) => push(s, 'A'),
    run: (s) => s.room.send(s.member, { kind: 'playlist.edit', mediaId: id(s), title: 'Renamed' }),
  },
  {
    permission: 'delete_media_resource',
    what: "playlist.remove of someone else's item",
    setup: (s) => push(s, 'A'),
    run: (s) => s.room.send(s.member, { kind: 'playlist.remove', mediaId: id(s) }),
  },
  { permission: 'delete_media_resource', what: 'playlist.clear', setup: (s) => push(s, 'A'), run: (s) => s.room.send(s.member, { kind: 'playlist.clear' }) },
  {
    permission: 'reorder_media_resources',
    what: 'playlist.move',
    setup: async (s) => {
      await push(s, 'A');
      await push(s, 'B');
    },
    run: (s) => s.room.send(s.member, { kind: 'playlist.move', mediaId: id(s, 1), toIndex: 0 }),
  },
  { permission: 'set_current_media', what: 'playlist.setCurrent', setup: (s) => push(s, 'A'), run: (s) => s.room.send(s.member, { kind: 'playlist.setCurrent', mediaId: id(s) }) },
  {
    permission: 'set_current_media',
    what: 'playback.next',
    setup: async (s) => {
      await playing(s);
      await push(s, 'B');
    },
    run: (s) => s.room.send(s.member, { kind: 'playback.next' }),
  },
  {
    permission: 'set_current_media',
    what: 'playback.previous',
    setup: async (s) => {
      await push(s, 'A');
      await push(s, 'B');
      await s.room.send(s.owner, { kind: 'playlist.setCurrent', mediaId: id(s, 1) });
    },
    run: (s) => s.room.send(s.member, { kind: 'playback.previous' }),
  },
  { permission: 'control_playback', what: 'playback.play', setup: playing, run: (s) => s.room.send(s.member, { kind: 'playback.play' }) },
  {
    permission: 'control_playback',
    what: 'playback.pause',
    setup: async (s) => {
      await playing(s);
      await s.room.send(s.owner, { kind: 'playback.play' });
    },
    run: (s) => s.room.send(s.member, { kind: 'playback.pause' }),
  },
  { permission: 'control_playback', what: 'playback.seek', setup: playing, run: (s) => s.room.send(s.member, { kind: 'playback.seek', position: 42 }) },
  { permission: 'control_playback', what: 'playback.rate', setup: playing, run: (s) => s.room.send(s.member, { kind: 'playback.rate', rate: 1.5 }) },
  { permission: 'use_webrtc', what: 'webrtc.join', run: (s) => s.room.send(s.member, { kind: 'webrtc.join' }) },
  { permission: 'edit_room_settings', what: 'room.update', run: (s) => s.room.send(s.member, { kind: 'room.update', name: 'Ours now' }) },
  {
    permission: 'view_media_resources',
    what: 'playlist.playable of an item that is not playing',
    setup: async (s) => {
      await playing(s);
      await push(s, 'B');
    },
    run: (s) => s.room.send(s.member, { kind: 'playlist.playable', mediaId: id(s, 1) }),
  },
  {
    permission: 'publish_livestream',
    what: 'live.authorize',
    setup: async (s) => {
      const { item } = await s.room.send(s.owner, { kind: 'playlist.push', title: 'On air', provider: 'live' });
      s.ids.push(item.id);
    },
    run: (s) => s.room.send(s.member, { kind: 'live.authorize', mediaId: id(s) }),
  },
];

/**
 * A room whose `member` holds exactly `permissions`: through the room's member override, or,
 * when they include administration permissions (which overrides never give members), as an
 * admin through the room's admin override.
 */
async function scene(permissions: readonly Permission[]): Promise<Scene> {
  const owner = user(uid('owner'));
  const member = user(uid('member'));
  const asAdmin = permissions.some(isAdministration);
  const room = await bed.createRoom(owner, { settings: { permissionOverrides: { [asAdmin ? 'admin' : 'member']: [...permissions] } } });
  await addMember(room, member);
  if (asAdmin) await room.send(owner, { kind: 'member.setRole', userId: member.userId, role: 'admin' });
  return { room, owner, member, other: user(uid('other')), ids: [] };
}

for (const rule of RULES) {
  test(`${rule.what} needs ${rule.permission}`, async (t) => {
    const without = await scene(PERMISSIONS.filter((p) => p !== rule.permission));
    await rule.setup?.(without);
    await rejects(t, rule.run(without), 'forbidden', new RegExp(rule.permission));

    const withIt = await scene([rule.permission]);
    await rule.setup?.(withIt);
    await t.notThrowsAsync(rule.run(withIt));
  });
}

test('view_member_list and view_media_resources decide what room.get shows', async (t) => {
  const blind = await scene(PERMISSIONS.filter((p) => p !== 'view_member_list' && p !== 'view_media_resources'));
  const hidden = await blind.room.send(blind.member, { kind: 'room.get' });
  t.is(hidden.access, 'member');
  t.false('members' in hidden);
  t.false('playlist' in hidden);
  t.true('playback' in hidden, 'playback itself is shared with every member');

  const seeing = await scene(['view_member_list', 'view_media_resources']);
  const shown = await seeing.room.send(seeing.member, { kind: 'room.get' });
  t.true(shown.access === 'member' && Array.isArray(shown.members) && Array.isArray(shown.playlist));
  t.false('pendingMembers' in shown, 'join requests and bans need manage_members');
});

test('authors may edit and delete their own messages (within the edit window, chat-threads.test.ts) and edit or remove their own media without the moderator permissions', async (t) => {
  const s = await scene(['send_chat', 'create_media_resource']);
  const { message } = await s.room.send(s.member, { kind: 'chat.send', text: 'oops' });
  await t.notThrowsAsync(s.room.send(s.member, { kind: 'chat.edit', messageId: message.id, text: 'oops, fixed' }));
  await t.notThrowsAsync(s.room.send(s.member, { kind: 'chat.delete', messageId: message.id }));
  const { item } = await s.room.send(s.member, { kind: 'playlist.push', ...media('Mine') });
  await t.notThrowsAsync(s.room.send(s.member, { kind: 'playlist.edit', mediaId: item.id, title: 'Still mine' }));
  await t.notThrowsAsync(s.room.send(s.member, { kind: 'playlist.remove', mediaId: item.id }));

  // Without create_media_resource their own items are no longer theirs to change.
  const { item: kept } = await s.room.send(s.member, { kind: 'playlist.push', ...media('Kept') });
  await s.room.send(s.owner, { kind: 'room.update', permissionOverrides: { member: ['send_chat'] } });
  await rejects(t, s.room.send(s.member, { kind: 'playlist.remove', mediaId: kept.id }), 'forbidden', /delete_media_resource/);
});

test.serial('a runtime change of permissions.memberDefaultPermissions applies to a live room at once', async (t) => {
  const owner = user(uid('owner'));
  const member = user(uid('member'));
  const room = await bed.createRoom(owner);
  await addMember(room, member);
  await t.notThrowsAsync(room.send(member, { kind: 'chat.send', text: 'before' }));

  const defaults = bed.settings.get('permissions.memberDefaultPermissions');
  await bed.withSettings('permissions', { memberDefaultPermissions: defaults.filter((p) => p !== 'send_chat') }, async () => {
    await rejects(t, room.send(member, { kind: 'chat.send', text: 'during' }), 'forbidden', /send_chat/);
    const view = await room.send(member, { kind: 'room.get' });
    t.false(view.me.permissions.includes('send_chat'));
  });
  await t.notThrowsAsync(room.send(member, { kind: 'chat.send', text: 'after' }));
});

test.serial('the owner keeps every permission whatever the admin defaults say; other admins follow them', async (t) => {
  const owner = user(uid('owner'));
  const admin = user(uid('admin'));
  const room = await bed.createRoom(owner);
  await addMember(room, admin);
  await room.send(owner, { kind: 'member.setRole', userId: admin.userId, role: 'admin' });
  const { message } = await room.send(owner, { kind: 'chat.send', text: 'pin me' });
  await bed.withSettings('permissions', { adminDefaultPermissions: ['send_chat'] }, async () => {
    await rejects(t, room.send(admin, { kind: 'chat.pin', messageId: message.id }), 'forbidden', /pin_chat/);
    await t.notThrowsAsync(room.send(owner, { kind: 'chat.pin', messageId: message.id }));
  });
});

test.serial('the guest ceiling caps guests on the runtime defaults', async (t) => {
  const owner = user(uid('owner'));
  const visitor = guest(uid('guest'));
  const room = await bed.createRoom(owner);
  await room.send(owner, { kind: 'playlist.push', ...media('A') });
  await addMember(room, visitor);
  const defaults = await room.send(visitor, { kind: 'room.get' });
  t.deepEqual(defaults.me.permissions, ['view_chat_history', 'view_member_list'], 'by default guests read the chat and see who is there');
  await bed.withSettings('permissions', { guestDefaultPermissions: [] }, async () => {
    const none = await room.send(visitor, { kind: 'room.get' });
    t.deepEqual(none.me.permissions, [], 'an operator can take that away');
    await rejects(t, room.send(visitor, { kind: 'chat.history' }), 'forbidden');
  });

  await bed.withSettings('permissions', { guestDefaultPermissions: [...GUEST_PERMISSION_CEILING] }, async () => {
    const view = await room.send(visitor, { kind: 'room.get' });
    t.deepEqual([...view.me.permissions].sort(), [...GUEST_PERMISSION_CEILING].sort());
    t.true(view.access === 'member' && Array.isArray(view.members));
    t.false('playlist' in view, 'media sources stay above the ceiling');
    await t.notThrowsAsync(room.send(visitor, { kind: 'chat.history' }));
    await t.notThrowsAsync(room.send(visitor, { kind: 'webrtc.join' }));
    await rejects(t, room.send(visitor, { kind: 'chat.send', text: 'spam' }), 'forbidden', /send_chat/);
    await rejects(t, room.send(visitor, { kind: 'playlist.push', ...media('B') }), 'forbidden');
  });
  // The setting itself refuses anything above the ceiling, so the defaults can never carry it.
  await rejects(t, bed.settings.update('permissions', { guestDefaultPermissions: ['send_chat'] }, { actor: 'test', source: 'test' }), 'invalid_argument');
});

test('the guest ceiling caps guests on room overrides, both when written and when read', async (t) => {
  const owner = user(uid('owner'));
  const visitor = guest(uid('guest'));
  const room = await bed.createRoom(owner);
  await addMember(room, visitor);

  const refused = await rejects(
    t,
    room.send(owner, { kind: 'room.update', permissionOverrides: { guest: ['view_chat_history', 'send_chat'] } }),
    'invalid_argument',
    /guest ceiling/,
  );
  t.is(refused.issues[0]?.key, 'permissionOverrides.guest');
  await room.send(owner, { kind: 'room.update', permissionOverrides: { guest: ['view_chat_history'] } });
  await t.notThrowsAsync(room.send(visitor, { kind: 'chat.history' }));
  await rejects(t, room.send(visitor, { kind: 'webrtc.join' }), 'forbidden', /use_webrtc/);

  // An override above the ceiling that reached the database anyway (an older release, a hand
  // edit) still grants a guest nothing above it.
  await bed.pool.query(
    `UPDATE rooms SET settings = jsonb_set(settings, '{permissionOverrides,guest}', '["send_chat","control_playback","view_chat_history"]')
     WHERE id = $1`,
    [room.id],
  );
  room.abandon();
  const reloaded = await bed.activate(room.id);
  const view = await reloaded.send(visitor, { kind: 'room.get' });
  t.deepEqual(view.me.permissions, ['view_chat_history']);
  await rejects(t, reloaded.send(visitor, { kind: 'chat.send', text: 'spam' }), 'forbidden', /send_chat/);
});

test('a member demoted to the guest role is held to the guest ceiling too', async (t) => {
  const owner = user(uid('owner'));
  const member = user(uid('member'));
  const room = await bed.createRoom(owner, { settings: { permissionOverrides: { guest: ['view_chat_history'] } } });
  await addMember(room, member);
  await room.send(owner, { kind: 'member.setRole', userId: member.userId, role: 'guest' });
  const view = await room.send(member, { kind: 'room.get' });
  t.deepEqual(view.me.permissions, ['view_chat_history']);
  await rejects(t, room.send(member, { kind: 'chat.send', text: 'hi' }), 'forbidden');
});

test('service callers act with every permission but are never present in a room', async (t) => {
  const owner = user(uid('owner'));
  const member = user(uid('member'));
  const room = await bed.createRoom(owner);
  await addMember(room, member);
  await t.notThrowsAsync(room.send(service(), { kind: 'member.kick', userId: member.userId }));
  await rejects(t, room.send(service(), { kind: 'presence.enter', connectionId: 'x' }), 'forbidden');
  await rejects(t, room.send(service(), { kind: 'member.join' }), 'forbidden');
});
