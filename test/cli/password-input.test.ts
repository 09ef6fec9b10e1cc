import { PassThrough, Writable } from 'node:stream';
import test from 'ava';
import { readNewPassword, type PasswordIo } from '../../cli/password-input.js';
import { isAppError } from '../../errors/app-error.js';

// The terminal side of `svc user create-root` / `reset-password`: a fake TTY stands in for the
// terminal (raw mode recorded, keys typed after each prompt), so what would be echoed is
// exactly what the command wrote to stderr.
class FakeTerminal {
  readonly stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    setRawMode: (mode: boolean) => {
      this.rawModes.push(mode);
      this.stdin.isRaw = mode;
    },
  });
  readonly rawModes: boolean[] = [];
  written = '';
  readonly stderr: Writable;

  /** `answers[i]` is typed once the i-th prompt has been written. */
  constructor(answers: string[]) {
    const pending = [...answers];
    this.stderr = new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        this.written += chunk.toString();
        if (chunk.toString().endsWith(': ')) {
          const answer = pending.shift();
          if (answer !== undefined) setImmediate(() => this.stdin.write(answer));
        }
        callback();
      },
    });
  }

  get io(): PasswordIo {
    return { stdin: this.stdin, stderr: this.stderr };
  }
}

test('a terminal is asked twice with echo off, and editing keys work', async (t) => {
  const terminal = new FakeTerminal(['secreX\u007ft pass\r', 'secret pass\r']);
  const password = await readNewPassword(terminal.io, { fromStdin: false, prompt: 'Password for alice: ' });
  t.is(password, 'secret pass');
  t.is(terminal.written, 'Password for alice: \nRepeat it: \n');
  t.deepEqual(terminal.rawModes, [true, false, true, false]);
});

test('entries that differ change nothing and say so', async (t) => {
  const terminal = new FakeTerminal(['one password\r', 'another one\r']);
  const err = await readNewPassword(terminal.io, { fromStdin: false, prompt: 'Password: ' }).catch((caught: unknown) => caught);
  t.true(isAppError(err));
  t.regex((err as Error).message, /password: the two entries differ; nothing was changed/);
  t.is(terminal.stdin.isRaw, false);
});

test('Ctrl-C cancels and restores the terminal; Ctrl-U and arrow keys are not part of the password', async (t) => {
  const cancelled = new FakeTerminal(['abc\u0003']);
  const err = await readNewPassword(cancelled.io, { fromStdin: false, prompt: 'Password: ' }).catch((caught: unknown) => caught);
  t.regex((err as Error).message, /cancelled/);
  t.deepEqual(cancelled.rawModes, [true, false]);

  const edited = new FakeTerminal(['wrong\u0015right one\u001b[A\r', 'right one\r']);
  t.is(await readNewPassword(edited.io, { fromStdin: false, prompt: 'Password: ' }), 'right one');
});

test('without a terminal the first line of stdin is the password', async (t) => {
  const piped = (text: string): PasswordIo => {
    const stdin = new PassThrough();
    stdin.end(text);
    return { stdin, stderr: new PassThrough() };
  };
  t.is(await readNewPassword(piped('pass word\n'), { fromStdin: false, prompt: 'unused: ' }), 'pass word');
  t.is(await readNewPassword(piped('pass word\r\n'), { fromStdin: true, prompt: 'unused: ' }), 'pass word');
  t.is(await readNewPassword(piped('no newline'), { fromStdin: true, prompt: 'unused: ' }), 'no newline');
  for (const [text, problem] of [
    ['', /stdin was empty/],
    ['\n', /stdin was empty/],
    ['two\nlines\n', /alone on one line/],
    ['x'.repeat(5000), /more than 4096 bytes/],
  ] as const) {
    const err = await readNewPassword(piped(text), { fromStdin: true, prompt: 'unused: ' }).catch((caught: unknown) => caught);
    t.true(isAppError(err), JSON.stringify(text.slice(0, 20)));
    t.regex((err as Error).message, problem);
  }
  // --password-stdin reads stdin even when it is a terminal.
  const terminal = new FakeTerminal([]);
  terminal.stdin.end('typed ahead\n');
  t.is(await readNewPassword(terminal.io, { fromStdin: true, prompt: 'unused: ' }), 'typed ahead');
  t.is(terminal.written, '');
});
