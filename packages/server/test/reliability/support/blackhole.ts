import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';

/**
 * A port on 127.0.0.1 where a TCP connect never completes: a listening socket that never accepts, with its accept
 * queue already full (one connection parked in it), so the kernel drops further SYNs and the caller's connect
 * waits until its own timeout. Node's servers always accept, hence a tiny python3 listener; null without python3.
 */
export interface Blackhole {
  url: string;
  close(): void;
}

const LISTENER =
  'import socket,sys,time\ns=socket.socket()\ns.bind(("127.0.0.1",0))\ns.listen(0)\nprint(s.getsockname()[1],flush=True)\nsys.stdin.read()';

export async function startBlackhole(): Promise<Blackhole | null> {
  if (spawnSync('python3', ['--version']).status !== 0) return null;
  const proc = spawn('python3', ['-c', LISTENER], { stdio: ['pipe', 'pipe', 'ignore'] });
  const port = await new Promise<number>((resolve, reject) => {
    proc.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    proc.once('exit', () => reject(new Error('the python3 listener exited')));
  });
  // The one connection the accept queue holds: after it, connects hang.
  const parked = net.connect(port, '127.0.0.1');
  await new Promise<void>((r) => parked.once('connect', () => r()));
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      parked.destroy();
      proc.stdin.end(); // the listener exits when its stdin closes
    },
  };
}
