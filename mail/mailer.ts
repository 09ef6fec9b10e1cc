/**
 * Outgoing email for the service (signup confirmation, password reset): one pooled SMTP
 * transport per process, configured from `smtp.*`. Failures cross the module boundary as
 * AppError('unavailable') so a gateway answers 503 instead of leaking transport details, and
 * the transport's own logging stays off: message bodies carry one-time codes. A server without
 * SMTP is a state, not an outage: email flows answer `failed_precondition` (409) saying so, and
 * the operator is told once per process, at warn.
 *
 * nodemailer is loaded at the first message, not at start: it is 39 modules and about 70 ms of a
 * process's start (2026-12-01), and most processes of a fleet never send an email.
 */
import type { Transporter } from 'nodemailer';
import type { SMTPPoolOptions } from 'nodemailer/lib/smtp-pool';
import type { StartupConfig } from '../config/index.js';
import { AppError } from '../errors/index.js';
import type { Logger } from '../observability/index.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** False when `smtp.host` is empty: email is switched off and send() always fails. */
  readonly configured: boolean;
  /**
   * Nothing when email is on. When it is off, `failed_precondition` ("email is not configured on
   * this server"); the first refusal in the process is logged at warn (later ones are not logged:
   * they are the same fact, and each caller gets the answer).
   */
  requireConfigured(): void;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export const EMAIL_NOT_CONFIGURED = 'email is not configured on this server (smtp.host and smtp.sender)';

/** What email flows answer on a server without SMTP. */
export function emailNotConfigured(): AppError {
  return new AppError('failed_precondition', EMAIL_NOT_CONFIGURED);
}

/** A request waiting on email must not hang on a server that accepts TCP and then says nothing. */
const CONNECT_TIMEOUT_MS = 10_000;
/** Bounds a server that stalls mid-conversation; nodemailer's default is 10 minutes. */
const SOCKET_TIMEOUT_MS = 30_000;
/** Idle pooled connections are closed before the socket timeout would end them as errors. */
const IDLE_TIMEOUT_MS = 20_000;
/** The longest server reply quoted in an error message; some servers send paragraphs. */
const MAX_REASON_CHARS = 200;

/** The fields nodemailer sets on its errors that are safe to log and to show. */
interface SmtpFailure {
  code?: string;
  response?: string;
  responseCode?: number;
  command?: string;
  message: string;
}

function asFailure(err: unknown): SmtpFailure {
  if (!(err instanceof Error)) return { message: String(err) };
  const e = err as Error & Partial<Record<'code' | 'response' | 'command', unknown>> & { responseCode?: unknown };
  return {
    message: err.message,
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.response === 'string' ? { response: e.response } : {}),
    ...(typeof e.responseCode === 'number' ? { responseCode: e.responseCode } : {}),
    ...(typeof e.command === 'string' ? { command: e.command } : {}),
  };
}

/**
 * `535 5.7.8 Authentication failed (AUTH PLAIN)` when the server answered, otherwise the
 * local reason (`ESOCKET connect ECONNREFUSED 127.0.0.1:25`): what an operator needs to fix it.
 */
function describe(failure: SmtpFailure): string {
  const reason = failure.response
    ? `${failure.response}${failure.command ? ` (${failure.command})` : ''}`
    : `${failure.code ? `${failure.code} ` : ''}${failure.message}`;
  const oneLine = reason.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_REASON_CHARS ? `${oneLine.slice(0, MAX_REASON_CHARS - 1)}…` : oneLine;
}

export function createMailer(smtp: StartupConfig['smtp'], logger: Logger): Mailer {
  if (smtp.host === '') {
    let warned = false;
    return {
      configured: false,
      requireConfigured(): void {
        if (!warned) {
          warned = true;
          logger.child({ component: 'mailer' }).warn('email sign-up and password reset answer failed_precondition: email is not configured (set smtp.host and smtp.sender)');
        }
        throw emailNotConfigured();
      },
      send: () => Promise.reject(emailNotConfigured()),
      close: () => undefined,
    };
  }

  const options: SMTPPoolOptions & { pool: true } = {
    pool: true,
    host: smtp.host,
    port: smtp.port,
    // 465 is implicit TLS (SMTPS); elsewhere nodemailer upgrades with STARTTLS whenever the
    // server offers it and fails rather than continue in plaintext if that upgrade fails.
    secure: smtp.port === 465,
    ...(smtp.username !== '' ? { auth: { user: smtp.username, pass: smtp.password } } : {}),
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    idleTimeout: IDLE_TIMEOUT_MS,
    // Its debug output includes the DATA stream, that is the one-time codes.
    logger: false,
    debug: false,
  };
  let transport: Promise<Transporter> | undefined;
  const opened = (): Promise<Transporter> => (transport ??= import('nodemailer').then(({ createTransport }) => createTransport(options, { from: smtp.sender })));
  const log = logger.child({ component: 'mailer' });

  return {
    configured: true,

    requireConfigured: () => undefined,

    async send(message: MailMessage): Promise<void> {
      try {
        await (await opened()).sendMail({
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html !== undefined ? { html: message.html } : {}),
        });
      } catch (err) {
        const failure = asFailure(err);
        const reason = describe(failure);
        // AppError has no `cause`, so the details live here. Only picked fields: never the
        // error object (whose shape is nodemailer's), the credentials or the message.
        log.warn(
          {
            smtp: { host: smtp.host, port: smtp.port },
            code: failure.code,
            responseCode: failure.responseCode,
            command: failure.command,
          },
          `could not send email: ${reason}`,
        );
        throw new AppError('unavailable', `could not send email: ${reason}`);
      }
    },

    close(): void {
      void transport?.then((made) => made.close());
    },
  };
}
