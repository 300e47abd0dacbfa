import { readdirSync, readFileSync } from 'node:fs';

/**
 * The processes whose parent is `pid` (Linux /proc), optionally only those whose command line contains `command`
 * (gateway workers: 'main.', leaving out tsx's esbuild service, also a child).
 */
export function childPids(pid: number, command?: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // field 4 of /proc/<pid>/stat, after the parenthesised command name
        const parent = Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
        return parent === pid && (command === undefined || readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(command));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The gateway workers a `WORKERS=N` primary started. */
export const gatewayWorkersOf = (pid: number): number[] => childPids(pid, 'main.');
