import type { MailMessage } from '../../mail/index.js';
import { CODE_TTL_MINUTES } from './codes.js';

/**
 * The texts of the service's emails. Plain text only: codes and links must survive every
 * mail client, and there is nothing to style yet.
 */
/** A link into the web client at the public URL, carrying the address (and code) as its query. */
export function emailLink(publicUrl: string, path: string, query: Record<string, string>): string {
  return `${publicUrl.replace(/(?<!\/)\/+$/, '')}${path}?${new URLSearchParams(query).toString()}`;
}

export function confirmSignupMessage(input: { to: string; username: string; code: string; link: string }): MailMessage {
  return {
    to: input.to,
    subject: `Your sign-up code: ${input.code}`,
    text: [
      `Someone (hopefully you) asked to create the account "${input.username}" with this address.`,
      '',
      `Your confirmation code is ${input.code}`,
      `or open ${input.link}`,
      '',
      `The code works once, for ${CODE_TTL_MINUTES} minutes. If this was not you, ignore this email.`,
    ].join('\n'),
  };
}

/** Sent instead of a code when the address already has an account: the form reveals nothing. */
export function alreadyRegisteredMessage(input: { to: string; username: string; resetLink: string }): MailMessage {
  return {
    to: input.to,
    subject: 'You already have an account',
    text: [
      `Someone asked to create an account with this address, which already belongs to "${input.username}".`,
      '',
      `If you forgot your password, reset it at ${input.resetLink}`,
      'If this was not you, ignore this email.',
    ].join('\n'),
  };
}

export function resetPasswordMessage(input: { to: string; username: string; code: string; link: string }): MailMessage {
  return {
    to: input.to,
    subject: `Your password reset code: ${input.code}`,
    text: [
      `Someone (hopefully you) asked to reset the password of "${input.username}".`,
      '',
      `Your reset code is ${input.code}`,
      `or open ${input.link}`,
      '',
      `The code works once, for ${CODE_TTL_MINUTES} minutes. Resetting signs out every session.`,
      'If this was not you, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}
