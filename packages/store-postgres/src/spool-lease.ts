import fs from 'node:fs';
import path from 'node:path';

/**
 * Who owns a spool segment, beyond its pid. A pid alone proves nothing on a DATA_DIR shared across PID namespaces
 * (every container's gateway is PID 1) or hosts; within one namespace of one boot, a pid and its start time name one
 * process.
 */
interface Owner {
  pid: number;
  /** boot id and PID namespace: where `pid` means this process (null when /proc cannot tell) */
  scope: string | null;
  /** the process's start time in clock ticks since boot (/proc/<pid>/stat field 22) */
  start: string | null;
}

/** A process's pid (as its /proc names it), state and start time, or null when there is no such process. */
function procStat(pid: number | 'self'): { pid: number; state: string; start: string } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: fields are counted after its closing one
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid: Number(stat.slice(0, stat.indexOf(' '))), state: fields[0]!, start: fields[19]! };
  } catch {
    return null;
  }
}

function thisProcess(): Owner {
  const own = procStat('self');
  // no /proc (not Linux), or one mounted from another PID namespace: only the lease's age can tell
  if (!own || own.pid !== process.pid) return { pid: process.pid, scope: null, start: null };
  try {
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return { pid: process.pid, scope: `${boot} ${fs.readlinkSync('/proc/self/ns/pid')}`, start: own.start };
  } catch {
    return { pid: process.pid, scope: null, start: null };
  }
}

/**
 * The owner's lease on its segments: DATA_DIR/usage-spool/<token>.lease, written once (atomically) with the owner's
 * identity, its mtime renewed every leaseMs / 6 while the process lives; removed when it stops. Renewal changes only
 * the mtime, so it works on a full disk too.
 */
export class SpoolLease {
  private readonly self = thisProcess();
  private readonly file: string;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dir: string,
    token: string,
    private readonly leaseMs: number,
  ) {
    this.file = leaseFile(dir, token);
  }

  /** Takes the lease, if not held, and keeps renewing it: called before each segment is opened. */
  hold(): void {
    if (this.timer) return;
    this.write();
    this.timer = setInterval(() => this.renew(), Math.max(1, Math.floor(this.leaseMs / 6)));
    this.timer.unref();
  }

  /** Stops renewing and gives the lease up: what this process left in the spool is then claimable at once. */
  release(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    fs.rmSync(this.file, { force: true });
  }

  /**
   * Whether the owner of `token`'s segments is provably gone: it released its lease (or never had one: a version
   * before leases); in this namespace of this boot, no process has its pid and start time; elsewhere, its lease was
   * not renewed for leaseMs (the hosts sharing DATA_DIR keep their clocks within that of each other).
   */
  ownerGone(token: string): boolean {
    let fd: number;
    try {
      // open, then fstat: on NFS, opening revalidates the attributes that a bare stat may serve from a cache
      fd = fs.openSync(leaseFile(this.dir, token), 'r');
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT';
    }
    try {
      const renewedMs = fs.fstatSync(fd).mtimeMs;
      const owner = parseOwner(fs.readFileSync(fd, 'utf8'));
      if (owner && owner.scope !== null && owner.scope === this.self.scope) {
        const now = procStat(owner.pid);
        return !now || now.start !== owner.start || now.state === 'Z' || now.state === 'X';
      }
      return Date.now() - renewedMs > this.leaseMs;
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Removes the lease of an owner that is gone (its segments were just claimed). */
  forget(token: string): void {
    fs.rmSync(leaseFile(this.dir, token), { force: true });
  }

  private write(): void {
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.self), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }

  /** Off the event loop; a lease removed by a sweep that took this process for gone is written again. */
  private renew(): void {
    const now = new Date();
    fs.utimes(this.file, now, now, (e) => {
      if (e?.code !== 'ENOENT' || !this.timer) return;
      try {
        this.write();
      } catch {
        // the spool directory itself is gone or not writable: the spool reports that on its next append
      }
    });
  }
}

export const LEASE = /^([0-9a-f]+)\.lease$/;

function leaseFile(dir: string, token: string): string {
  return path.join(dir, `${token}.lease`);
}

function parseOwner(text: string): Owner | null {
  try {
    const o = JSON.parse(text) as Owner;
    return typeof o.pid === 'number' ? o : null;
  } catch {
    return null;
  }
}
