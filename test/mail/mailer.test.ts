/**
 * The mailer against a real SMTP server (the in-process sink): what arrives, what a failed
 * send turns into, and what is logged about it. No database stack is needed.
 */
import test, { type ExecutionContext } from 'ava';
import { pino } from 'pino';
import { defaultConfig } from '../../config/defaults.js';
import { isAppError } from '../../errors/app-error.js';
import { createMailer, type Mailer } from '../../mail/mailer.js';
import { createLogger, type Logger } from '../../observability/logger.js';
import { startSmtpSink, type SmtpSink } from '../fixtures/smtp-sink.js';

const logger = createLogger({ level: process.env.SVCTEST_LOG_LEVEL ?? 'silent', destination: 'stderr' });
const SENDER = 'svc <noreply@svc.test>';

async function sink(t: ExecutionContext): Promise<SmtpSink> {
  const started = await startSmtpSink();
  t.teardown(() => started.close());
  return started;
}

/** A mailer pointed at the sink; `overrides` replace its credentials or address. */
function mailerFor(t: ExecutionContext, target: SmtpSink, overrides: Partial<Parameters<typeof createMailer>[0]> = {}, log: Logger = logger): Mailer {
  const mailer = createMailer(
    { ...defaultConfig().smtp, host: target.host, port: target.port, username: target.username, password: target.password, sender: SENDER, ...overrides },
    log,
  );
  // Registered after the sink's teardown, so it runs first: ava runs teardowns last-in first-out.
  t.teardown(() => mailer.close());
  return mailer;
}

/** A warn-level logger whose lines the test can read, to check what a failure logs. */
function capturingLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { log: pino({ level: 'warn' }, { write: (line: string) => lines.push(line) }), lines };
}

/** Asserts the promise rejects with AppError('unavailable') and returns its message. */
async function unavailable(t: ExecutionContext, sending: Promise<void>): Promise<string> {
  const err = await t.throwsAsync(sending);
  t.true(isAppError(err), `expected an AppError, got ${String(err)}`);
  t.is(isAppError(err) ? err.code : undefined, 'unavailable');
  return err?.message ?? '';
}

test('a sent message arrives with its subject, text, html and sender, after AUTH', async (t) => {
  const smtp = await sink(t);
  const mailer = mailerFor(t, smtp);
  t.true(mailer.configured);

  const text = 'Your code is 482913.\nIt expires in 10 minutes.';
  const html = '<p>Your code is <b>482913</b>.</p>';
  await mailer.send({ to: 'Alice@example.test', subject: 'Confirm your address — svc', text, html });

  // Looked up in another case: the wait matches addresses case-insensitively.
  const mail = await smtp.waitForMail('alice@EXAMPLE.test');
  t.is(mail.subject, 'Confirm your address — svc');
  t.is(mail.text, text);
  t.is(mail.html, html);
  t.is(mail.from, '"svc" <noreply@svc.test>');
  t.deepEqual(mail.to, ['Alice@example.test']);
  t.is(mail.authUser, smtp.username);
  t.regex(mail.raw, /^Subject: /m);
  t.is(smtp.messages.length, 1);
});

test('the sink only takes authenticated mail: a mailer without a username is refused', async (t) => {
  const smtp = await sink(t);
  const mailer = mailerFor(t, smtp, { username: '', password: '' });

  const message = await unavailable(t, mailer.send({ to: 'bob@example.test', subject: 'hi', text: 'hello' }));
  t.regex(message, /^could not send email: 530 /);
  t.is(smtp.messages.length, 0);
});

test('a wrong password is unavailable, names the 535, and logs neither password nor body', async (t) => {
  const smtp = await sink(t);
  const { log, lines } = capturingLogger();
  const wrongPassword = 'not-the-password-7f3a';
  const mailer = mailerFor(t, smtp, { password: wrongPassword }, log);

  const message = await unavailable(t, mailer.send({ to: 'carol@example.test', subject: 'code', text: 'secret code 771245' }));
  t.regex(message, /^could not send email: 535 .*Authentication failed.*\(AUTH (PLAIN|LOGIN)\)$/);
  t.is(smtp.messages.length, 0);

  t.is(lines.length, 1, 'one warn line per failed send');
  t.regex(lines[0] ?? '', /could not send email: 535/);
  t.false(lines.some((line) => line.includes(wrongPassword)), 'the password must not be logged');
  t.false(lines.some((line) => line.includes('771245')), 'the body must not be logged');
});

test('a message the server refuses is unavailable with its reply code; the next one goes through', async (t) => {
  const smtp = await sink(t);
  const mailer = mailerFor(t, smtp);

  smtp.failNext(1);
  t.regex(await unavailable(t, mailer.send({ to: 'dave@example.test', subject: 'first', text: 'one' })), /^could not send email: 550 /);

  smtp.failNext(1, 451);
  t.regex(await unavailable(t, mailer.send({ to: 'dave@example.test', subject: 'second', text: 'two' })), /^could not send email: 451 /);

  // Only the requested number are refused, and the pool recovers from the refusals.
  await mailer.send({ to: 'dave@example.test', subject: 'third', text: 'three' });
  const mail = await smtp.waitForMail('dave@example.test');
  t.is(mail.subject, 'third');
  t.is(smtp.messages.length, 1);
});

test('a server that is not there is unavailable, naming the connection failure', async (t) => {
  const smtp = await startSmtpSink();
  const { host, port } = smtp;
  await smtp.close();
  const mailer = createMailer({ ...defaultConfig().smtp, host, port, username: '', password: '', sender: SENDER }, logger);
  t.teardown(() => mailer.close());

  t.regex(await unavailable(t, mailer.send({ to: 'erin@example.test', subject: 's', text: 't' })), /^could not send email: .*ECONNREFUSED/);
});

test('an unconfigured mailer says so and refuses to send', async (t) => {
  const mailer = createMailer({ ...defaultConfig().smtp, host: '', port: 587, username: '', password: '', sender: '' }, logger);
  t.false(mailer.configured);
  // A server without SMTP is a state, not an outage (since 2026-11-29: failed_precondition, no longer unavailable).
  const err = await t.throwsAsync(mailer.send({ to: 'frank@example.test', subject: 's', text: 't' }));
  t.is(isAppError(err) ? err.code : undefined, 'failed_precondition');
  t.is(err?.message, 'email is not configured on this server (smtp.host and smtp.sender)');
  t.throws(() => mailer.requireConfigured(), { message: 'email is not configured on this server (smtp.host and smtp.sender)' });
  mailer.close();
});

test('waitForMail rejects after its timeout, naming what it waited for and what came', async (t) => {
  const smtp = await sink(t);
  await t.throwsAsync(smtp.waitForMail('nobody@example.test', undefined, 200), {
    message: 'waited 200 ms for mail to nobody@example.test; no mail arrived at all',
  });

  // A near miss is reported: right recipient, but the predicate does not match.
  const mailer = mailerFor(t, smtp);
  await mailer.send({ to: 'grace@example.test', subject: 'welcome', text: 'hi' });
  await smtp.waitForMail('grace@example.test');
  const started = Date.now();
  await t.throwsAsync(smtp.waitForMail('grace@example.test', (mail) => mail.subject === 'reset', 300), {
    message: 'waited 300 ms for mail to grace@example.test matching the predicate; 1 arrived: to grace@example.test "welcome"',
  });
  t.true(Date.now() - started >= 290, 'it waited for the timeout');
});

test('waitForMail resolves for mail that arrives while it waits', async (t) => {
  const smtp = await sink(t);
  const mailer = mailerFor(t, smtp);
  const waiting = smtp.waitForMail('heidi@example.test', (mail) => mail.subject === 'second');
  // Handled now so that if a send below fails, that failure is reported, not this wait being
  // rejected by the sink's close as an unhandled rejection that kills the worker.
  waiting.catch(() => undefined);
  await mailer.send({ to: 'heidi@example.test', subject: 'first', text: '1' });
  await mailer.send({ to: 'heidi@example.test', subject: 'second', text: '2' });
  t.is((await waiting).text, '2');
});
