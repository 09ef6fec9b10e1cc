/**
 * The public surface of mail/: what code outside mail/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { createMailer, emailNotConfigured, type MailMessage, type Mailer } from './mailer.js';
