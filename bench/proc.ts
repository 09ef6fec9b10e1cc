/** What the benchmarks read of a process from Linux's /proc. */
import { readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/** Resident memory of a process, in bytes. */
export async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** CPU seconds (user + system) a process has used; 0 once it is gone. */
export async function cpuSeconds(pid: number): Promise<number> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** The child processes of a process. */
export async function childrenOf(pid: number): Promise<number[]> {
  const listed = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')).trim();
  return listed === '' ? [] : listed.split(/\s+/).map(Number);
}

/**
 * CPU seconds the whole machine has spent busy (every state of /proc/stat's first line but
 * idle and iowait), summed over its cores: what a window of load cost everything it ran on.
 */
export async function machineBusySeconds(): Promise<number> {
  const [, ...ticks] = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]!.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already in user).
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS;
}
