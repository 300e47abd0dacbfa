import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';

/** A package's own fake upstream (`node fake-upstream.mjs --port <N>`), started for the conformance kit. */
export interface FakeProcess {
  url: string;
  /** its control routes (POST /__fake/next, GET /__fake/log, POST /__fake/reset) */
  control(path: string, body?: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const c = connect(port, '127.0.0.1', () => (c.end(), resolve(true)));
    c.once('error', () => resolve(false));
  });

export async function startFakeProcess(dir: string, args: string[] = []): Promise<FakeProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(dir, 'fake-upstream.mjs'), '--port', String(port), ...args], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  // never outlive the process that started it
  const orphanGuard = () => child.kill();
  process.once('exit', orphanGuard);
  child.once('exit', () => {
    exited = true;
    process.removeListener('exit', orphanGuard);
  });
  // wait for the port, not for a log line: an author's fake need not print one
  for (let i = 0; !(await accepts(port)); i++) {
    if (exited || i > 600) {
      child.kill();
      throw new Error(`fake-upstream.mjs did not listen on port ${port}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    control: async (path, body) => {
      const res = await fetch(`${url}${path}`, {
        method: body === undefined && path.endsWith('/log') ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined && path.endsWith('/log') ? {} : { body: JSON.stringify(body ?? {}) }),
      });
      return res.json();
    },
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
