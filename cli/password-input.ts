import type { Readable, Writable } from 'node:stream';
import { AppError } from '../errors/app-error.js';

/**
 * A password for `svc user create-root` / `reset-password`: from a pipe when stdin is not a
 * terminal (or `--password-stdin` says so), else typed twice at a prompt that echoes nothing.
 * Never from an argument: those end up in shell history and `ps`.
 */
export async function readPassword(options: { stdin: Readable; stderr: Writable; fromStdin: boolean; what: string }): Promise<string> {
  const tty = options.stdin as Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => void };
  if (options.fromStdin || !tty.isTTY || !tty.setRawMode) {
    const chunks: Buffer[] = [];
    for await (const chunk of options.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    // One line: a trailing newline from `echo` is not part of the password.
    const text = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
    if (text.length === 0) throw AppError.invalid([{ key: 'password', message: 'stdin was empty' }]);
    return text;
  }
  const first = await prompt(tty, options.stderr, `${options.what}: `);
  const second = await prompt(tty, options.stderr, `${options.what} again: `);
  if (first !== second) throw AppError.invalid([{ key: 'password', message: 'the two entries differ' }]);
  return first;
}

function prompt(stdin: Readable & { setRawMode?: (raw: boolean) => void }, stderr: Writable, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed = '';
    stderr.write(text);
    stdin.setRawMode?.(true);
    stdin.resume();
    const done = (err?: Error): void => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write('\n');
      if (err) reject(err);
      else resolve(typed);
    };
    const onData = (chunk: Buffer): void => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new AppError('invalid_argument', 'cancelled'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}
