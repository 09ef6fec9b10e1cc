import type { Writable } from 'node:stream';
import type { UserChangeView } from '../contracts/management.js';
import { renderStructured } from './output.js';

/** What `svc user ban|unban|set-role|reset-password` print: one sentence, or the change as JSON. */
export function printChange(out: Writable, change: UserChangeView, json: boolean, sentence: string): void {
  out.write(json ? renderStructured(change, 'json') : `${sentence}\n`);
}
