/**
 * What a host tells its meter (the room metrics on /metrics are built on it): activations by
 * outcome, with a takeover after the previous owner stopped counted as `taken_over` (the
 * dashboard's failovers), command turns by outcome, events published, and the end of an
 * activation by reason.
 */
import test from 'ava';
import type { ActivationOutcome, HostMeter } from '../../../actors/runtime/host-meter.js';
import type { DeactivationReason } from '../../../actors/runtime/actor-type.js';
import { caller, localSpace } from './fixture.js';

class RecordingMeter {
  readonly activations: ActivationOutcome[] = [];
  readonly deactivations: DeactivationReason[] = [];
  readonly commands: Array<{ kind: string; outcome: string; seconds: number }> = [];
  published = 0;
  activation(_type: string, outcome: ActivationOutcome): void {
    this.activations.push(outcome);
  }
  deactivation(_type: string, reason: DeactivationReason): void {
    this.deactivations.push(reason);
  }
  command(_type: string, kind: string, outcome: string, seconds: number): void {
    this.commands.push({ kind, outcome, seconds });
  }
  event(): void {
    this.published += 1;
  }
}

test('a host counts activations by outcome, a takeover after its owner stopped, command outcomes, events and ends', async (t) => {
  const first = new RecordingMeter();
  const second = new RecordingMeter();
  const meterOf = (recording: RecordingMeter): HostMeter => ({
    activation: (type, outcome) => recording.activation(type, outcome),
    deactivation: (type, reason) => recording.deactivation(type, reason),
    command: (type, kind, outcome, seconds) => recording.command(type, kind, outcome, seconds),
    published: () => recording.event(),
  });
  const { local, client, addHost } = await localSpace(t, 'host_meter', { meter: meterOf(first) });
  const other = await addHost('other', { meter: meterOf(second) });

  await client.send('counter', 'metered', { op: 'inc' }, { caller });
  await t.throwsAsync(client.send('counter', 'metered', { op: 'fail' }, { caller }), { message: /has no such thing/ });
  const [owner, standby] = first.activations.length > 0 ? [local, other] : [other, local];
  const [ownerMeter, standbyMeter] = owner === local ? [first, second] : [second, first];
  t.deepEqual(ownerMeter.activations, ['created']);
  t.deepEqual(
    ownerMeter.commands.map(({ kind, outcome }) => [kind, outcome]),
    [
      ['other', 'ok'],
      ['other', 'not_found'],
    ],
  );
  t.true(ownerMeter.commands.every(({ seconds }) => seconds >= 0 && seconds < 60));
  t.is(ownerMeter.published, 1, 'the inc published one event');

  // An abrupt stop leaves the record behind: the next command's activation takes it over.
  await owner.host.stop();
  t.deepEqual(ownerMeter.deactivations, ['shutdown']);
  await client.send('counter', 'metered', { op: 'inc' }, { caller });
  t.deepEqual(standbyMeter.activations, ['taken_over']);
  t.deepEqual(
    standbyMeter.commands.map(({ outcome }) => outcome),
    ['ok'],
  );
  t.is(standby.host.activeCount(), 1);
});
