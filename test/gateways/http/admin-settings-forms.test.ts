/**
 * What the admin settings page builds its forms from: every setting's human name, sentence and
 * accepted values in plain words, and its input (bounds, choices; guests offered only what a
 * guest can ever have). And a form's round trip of a value with a hidden credential: sent back
 * as "[redacted]" it keeps the stored one for the same client, and is refused (nothing
 * written) where no stored credential matches. Answers are checked against /api/openapi.json
 * by the bed.
 */
import test from 'ava';
import { GUEST_PERMISSION_CEILING } from '../../../contracts/permissions/defaults.js';
import { PERMISSIONS } from '../../../contracts/permissions/names.js';
import { startGatewayBed, type GatewayBed, type Member } from '../bed.js';

let bed: GatewayBed;
let root: Member;

test.before(async () => {
  bed = await startGatewayBed('http-admin-settings-forms');
  root = await bed.admin('root', 'root');
});
test.after.always(async () => {
  await bed?.close();
});

interface View {
  key: string;
  group: string;
  groupLabel: string;
  label: string;
  description: string;
  accepts: string;
  rule: string;
  input: { kind: string; min?: number; max?: number; zeroMeansUnlimited?: boolean; choices?: { value: string; label: string }[]; options?: { value: string; label: string }[] };
}

const list = async () => (await bed.call<{ settings: View[] }>('GET', '/api/admin/settings', undefined, root.token)).body.settings;
const setting = (settings: View[], key: string): View => {
  const found = settings.find((view) => view.key === key);
  if (!found) throw new Error(`no ${key}`);
  return found;
};

test('every setting has a human name, a sentence, a group heading and what it accepts in plain words', async (t) => {
  const settings = await list();
  t.true(settings.length > 20);
  for (const view of settings) {
    t.true(view.label.length > 0 && view.label !== view.key, view.key);
    t.true(/^[A-Z].*\.$/.test(view.description), `${view.key}: a sentence, got ${view.description}`);
    t.true(view.groupLabel.length > 0 && view.groupLabel !== view.group, view.key);
    t.false(view.accepts.includes('..='), `${view.key}: ${view.accepts}`);
  }
  const rooms = setting(settings, 'server.maxRoomsPerUser');
  t.is(rooms.label, 'Rooms per person');
  t.is(rooms.accepts, 'A whole number from 1 to 1000.');
  t.is(rooms.rule, '1..=1000', 'the technical rule stays for the CLI and error messages');
  t.deepEqual(rooms.input, { kind: 'integer', min: 1, max: 1000, zeroMeansUnlimited: false });
  t.is(setting(settings, 'chat.maxMessagesPerRoom').accepts, 'A whole number from 0 to 100000; 0 means no limit.');
  t.deepEqual(setting(settings, 'room.passwordPolicy').input.options?.map((option) => option.value), ['optional', 'required', 'forbidden']);
  t.is(setting(settings, 'webrtc.externalIceServers').input.kind, 'iceServers');
  t.is(setting(settings, 'oauth2.providers').input.kind, 'oauth2Providers');
  t.is(setting(settings, 'cors.allowedOrigins').input.kind, 'textList');
});

test('permission lists offer their choices with labels; guests only what a guest can ever have', async (t) => {
  const settings = await list();
  const guest = setting(settings, 'permissions.guestDefaultPermissions').input;
  t.is(guest.kind, 'permissions');
  t.deepEqual(guest.choices?.map((choice) => choice.value), [...GUEST_PERMISSION_CEILING]);
  t.true(guest.choices?.every((choice) => choice.label !== choice.value && !choice.label.includes('_')));
  t.deepEqual(setting(settings, 'permissions.memberDefaultPermissions').input.choices?.map((choice) => choice.value), [...PERMISSIONS]);
  // What the form offers, the server takes.
  const written = await bed.call('PATCH', '/api/admin/setting-groups/permissions', { guestDefaultPermissions: guest.choices?.map((choice) => choice.value) }, root.token);
  t.is(written.status, 200);
  await bed.set('permissions', { guestDefaultPermissions: [] });
});

test.serial('a hidden TURN credential sent back unchanged keeps the stored one; where none matches, nothing is written', async (t) => {
  const turn = { urls: ['turn:turn.example.com:3478'], username: 'svc', credential: 'turn-secret' };
  await bed.set('webrtc', { externalIceServers: [turn] });
  try {
    const shown = await bed.call<{ value: unknown }>('GET', '/api/admin/settings/webrtc.externalIceServers', undefined, root.token);
    t.deepEqual(shown.body.value, [{ ...turn, credential: '[redacted]' }]);

    // The form adds an address to the server and a STUN server, leaving the credential hidden.
    const edited = [{ urls: [...turn.urls, 'turns:turn.example.com:5349'], username: 'svc', credential: '[redacted]' }, { urls: ['stun:stun.example.com:3478'] }];
    const saved = await bed.call('PATCH', '/api/admin/setting-groups/webrtc', { externalIceServers: edited }, root.token);
    t.is(saved.status, 200);
    t.deepEqual(bed.service.settings.get('webrtc.externalIceServers'), [{ ...edited[0], credential: 'turn-secret' }, edited[1]]);

    const stranger = await bed.call<{ code: string; issues: { key: string; message: string }[] }>(
      'PATCH',
      '/api/admin/setting-groups/webrtc',
      { externalIceServers: [{ urls: ['turn:other.example.com:3478'], username: 'svc', credential: '[redacted]' }] },
      root.token,
    );
    t.is(stranger.status, 400);
    t.is(stranger.body.issues[0]?.key, 'webrtc.externalIceServers');
    t.regex(stranger.body.issues[0]?.message ?? '', /^element 0: credential is hidden .*enter the credential$/);
    t.is((bed.service.settings.get('webrtc.externalIceServers')[0] as { credential?: string }).credential, 'turn-secret', 'nothing written');
  } finally {
    await bed.set('webrtc', { externalIceServers: [] });
  }
});

test.serial('a hidden OAuth2 client secret is kept for the same name, kind and client ID only', async (t) => {
  const provider = { instanceName: 'gh', enableSignup: true, github: { clientId: 'id-1', clientSecret: 'very-secret-value', redirectUrl: 'https://svc.test/oauth2/callback/gh' } };
  await bed.set('oauth2', { providers: [provider] });
  try {
    const renamedRedirect = { ...provider, enableSignup: false, github: { ...provider.github, clientSecret: '[redacted]', redirectUrl: 'https://svc.test/oauth2/callback/gh2' } };
    const saved = await bed.call('PATCH', '/api/admin/setting-groups/oauth2', { providers: [renamedRedirect] }, root.token);
    t.is(saved.status, 200);
    t.deepEqual(bed.service.settings.get('oauth2.providers'), [{ ...renamedRedirect, github: { ...renamedRedirect.github, clientSecret: 'very-secret-value' } }]);

    const otherClient = { ...renamedRedirect, github: { ...renamedRedirect.github, clientId: 'id-2' } };
    const refused = await bed.call<{ issues: { key: string; message: string }[] }>('PATCH', '/api/admin/setting-groups/oauth2', { providers: [otherClient] }, root.token);
    t.is(refused.status, 400);
    t.is(refused.body.issues[0]?.key, 'oauth2.providers');
    t.regex(refused.body.issues[0]?.message ?? '', /github\.clientSecret is hidden/);
    t.is(bed.service.settings.get('oauth2.providers')[0]?.github?.clientId, 'id-1', 'nothing written');
  } finally {
    await bed.set('oauth2', { providers: [] });
  }
});
