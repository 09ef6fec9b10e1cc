/**
 * What infra/stack.sh leaves in a stack directory that the harness reads: the ports it chose
 * (ports.env) and whether a process named in a pid file still runs. The NATS cluster's and the
 * PostgreSQL pair's views share them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The `SVC_STACK_*_PORT` values of the stack in `dir`, by variable name. */
export async function stackPorts(dir: string): Promise<Map<string, string>> {
  return new Map(
    (await readFile(join(dir, 'ports.env'), 'utf8'))
      .split('\n')
      .map((line) => line.split('='))
      .filter((pair): pair is [string, string] => pair.length === 2),
  );
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
