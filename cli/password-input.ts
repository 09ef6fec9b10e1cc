import type { Readable, Writable } from 'node:stream';
import { AppError } from '../errors/index.js';

/**
 * Reads a new password for `svc user create-root` and `svc user reset-password`: typed at the
 * terminal without echo, twice (a typo in a password nobody can see would lock the account),
 * or, for scripts, the first line of stdin (`--password-stdin`, or whenever stdin is not a
 * terminal). Never from an argument: arguments show up in `ps` and shell history.
 */
export interface PasswordIo {
  stdin: Readable & { isTTY?: boolean; isRaw?: boolean; setRawMode?: (mode: boolean) => unknown };
  /** Prompts go to stderr, so stdout stays the command's output. */
  stderr: Writable;
}

/** More than any password the server accepts; stdin beyond it is refused, not read on. */
const MAX_STDIN_BYTES = 4096;
// eslint-disable-next-line no-control-regex -- matching terminal control sequences is the point
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)?/g;

export async function readNewPassword(io: PasswordIo, options: { fromStdin: boolean; prompt: string }): Promise<string> {
  if (options.fromStdin || !io.stdin.isTTY || !io.stdin.setRawMode) return readStdinLine(io.stdin);
  const first = await promptHidden(io, options.prompt);
  if (first.length === 0) throw AppError.invalid([{ key: 'password', message: 'is required; nothing was changed' }]);
  const second = await promptHidden(io, 'Repeat it: ');
  if (first !== second) throw AppError.invalid([{ key: 'password', message: 'the two entries differ; nothing was changed' }]);
  return first;
}

/**
 * Reads an existing password (to sign in with, `svc watch`): typed once without echo at a
 * terminal, or the first line of stdin when stdin is not a terminal.
 */
export async function readPassword(io: PasswordIo, prompt: string): Promise<string> {
  if (!io.stdin.isTTY || !io.stdin.setRawMode) return readStdinLine(io.stdin);
  const password = await promptHidden(io, prompt);
  if (password.length === 0) throw AppError.invalid([{ key: 'password', message: 'is required' }]);
  return password;
}

/** The first line of stdin, without its line ending; stdin must hold nothing else. */
export async function readStdinLine(stdin: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_STDIN_BYTES) throw AppError.invalid([{ key: 'password', message: `stdin holds more than ${MAX_STDIN_BYTES} bytes; give the password alone on one line` }]);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  if (/[\r\n]/.test(text)) throw AppError.invalid([{ key: 'password', message: 'stdin must hold the password alone on one line' }]);
  if (text.length === 0) throw AppError.invalid([{ key: 'password', message: 'stdin was empty: pipe the password in, or run the command at a terminal to be asked for it' }]);
  return text;
}

/** One line typed with echo off (raw mode): Enter ends it, Backspace and Ctrl-U edit, Ctrl-C cancels. */
function promptHidden(io: PasswordIo, prompt: string): Promise<string> {
  const { stdin, stderr } = io;
  stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let value: string[] = [];
    const wasRaw = stdin.isRaw ?? false;
    const finish = (error?: AppError): void => {
      stdin.off('data', onData);
      stdin.setRawMode?.(wasRaw);
      stdin.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(value.join(''));
    };
    const onData = (chunk: Buffer | string): void => {
      // An escape sequence (an arrow key, a function key) is not part of a password.
      const text = (typeof chunk === 'string' ? chunk : chunk.toString('utf8')).replace(ESCAPE_SEQUENCE, '');
      for (const ch of text) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003' || (ch === '\u0004' && value.length === 0)) return finish(new AppError('invalid_argument', 'cancelled; nothing was changed'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch === '\u0015') value = [];
        else if (ch >= ' ') value.push(ch);
      }
    };
    stdin.setRawMode?.(true);
    stdin.on('data', onData);
    stdin.resume();
  });
}
