import test from 'ava';
import { Outbox } from '../../../actors/runtime/outbox.js';
import { connectNats, uniquePrefix } from '../../fixtures/actor-host-process.js';
import { withDeadline } from '../../fixtures/deadline.js';

const decoder = new TextDecoder();

test('publishes reach subscribers in the order they were made, across subjects', async (t) => {
  const prefix = uniquePrefix('outbox');
  const [publisher, subscriber] = await Promise.all([connectNats('outbox-pub'), connectNats('outbox-sub')]);
  try {
    const received: string[] = [];
    const sub = subscriber.subscribe(`${prefix}.>`, { max: 500 });
    const done = (async () => {
      for await (const msg of sub) received.push(`${msg.subject.slice(prefix.length + 1)}:${decoder.decode(msg.data)}`);
    })();
    await subscriber.flush();

    const errors: unknown[] = [];
    const outbox = new Outbox(publisher, (err) => errors.push(err));
    const sent: string[] = [];
    for (let i = 0; i < 500; i += 1) {
      const subject = i % 3 === 0 ? 'evt' : 'reply';
      outbox.publish(`${prefix}.${subject}`, String(i));
      sent.push(`${subject}:${i}`);
    }
    await withDeadline(done, 5_000, 'all 500 messages');
    t.deepEqual(received, sent);
    t.deepEqual(errors, []);
  } finally {
    await Promise.all([publisher.close(), subscriber.close()]);
  }
});

test('flush() hands everything to the connection at once, so a drain right after loses nothing', async (t) => {
  const prefix = uniquePrefix('outbox_flush');
  const [publisher, subscriber] = await Promise.all([connectNats('outbox-pub'), connectNats('outbox-sub')]);
  try {
    const sub = subscriber.subscribe(`${prefix}.last`, { max: 3 });
    await subscriber.flush();
    const outbox = new Outbox(publisher, () => undefined);
    for (const word of ['a', 'b', 'c']) outbox.publish(`${prefix}.last`, word);
    outbox.flush();
    await publisher.drain();
    const words: string[] = [];
    await withDeadline(
      (async () => {
        for await (const msg of sub) words.push(decoder.decode(msg.data));
      })(),
      5_000,
      'the three messages',
    );
    t.deepEqual(words, ['a', 'b', 'c']);
  } finally {
    await subscriber.close();
  }
});

test('a publish on a closed connection is reported, not thrown, and the rest still go out', async (t) => {
  const closed = await connectNats('outbox-closed');
  await closed.close();
  const errors: string[] = [];
  const outbox = new Outbox(closed, (_err, subject) => errors.push(subject));
  t.notThrows(() => {
    outbox.publish('x.one', '1');
    outbox.publish('x.two', '2');
    outbox.flush();
  });
  t.deepEqual(errors, ['x.one', 'x.two']);
});
