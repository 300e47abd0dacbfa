import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

/** What `npm start` runs (node's flags and the bundled server); buildGateway() makes the bundle from the sources. */
export const GATEWAY_ARGS = ['--max-semi-space-size=4', 'packages/server/dist/main.js'];
export function buildGateway(): void {
  execFileSync(process.execPath, ['scripts/build-server.cjs'], { cwd: ROOT, stdio: 'inherit' });
}

export interface Proc {
  name: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Spawns a process and waits until its output matches `ready`. */
export function startProcess(
  name: string,
  cmd: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 60000,
): Promise<Proc> {
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const onData = (d: Buffer) => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const proc: Proc = {
    name,
    child,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const t = setTimeout(() => child.kill('SIGKILL'), 10000);
        child.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${out.slice(-2000)}`)), timeoutMs);
    const check = () => {
      if (ready.test(out)) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        child.stderr!.off('data', check);
        resolve(proc);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${out.slice(-2000)}`));
    });
  });
}

/** Resident set size of a process, in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** The process and every descendant (Linux /proc): a store or worker moved into a child still counts. */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(parents.get(tree[i]!) ?? []));
  return tree;
}

/** RSS of the whole process tree, in MB. */
export function treeRssMb(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + (safe(() => rssMb(p)) ?? 0), 0);
}

/** User + system CPU seconds of the whole process tree (children that exited are in their parent's cutime). */
export function treeCpuSeconds(pid: number): number {
  const tick = 100; // USER_HZ on Linux
  return processTree(pid).reduce((sum, p) => {
    const f = safe(() => readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' '));
    return f ? sum + (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / tick : sum;
  }, 0);
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** The client key every bench gateway config grants. */
export const BENCH_KEY = 'sk-bench-client-key-0001';

/** The one-model gateway config of the CPU and profile runs: `bench` served by the mock on `mockPort`; returns its path. */
export function writeMockGatewayConfig(dir: string, mockPort: number): string {
  const file = path.join(dir, 'gateway.json');
  writeFileSync(
    file,
    JSON.stringify({
      providers: [
        { id: 'm', type: 'openai-compatible', baseUrl: `http://127.0.0.1:${mockPort}/v1`, apiKey: 'sk-upstream-bench' },
        // embeddings as from OpenAI: asked (and answered) in base64
        { id: 'o', type: 'openai', baseUrl: `http://127.0.0.1:${mockPort}/v1`, apiKey: 'sk-upstream-bench' },
      ],
      models: [
        { id: 'bench', kind: 'text', provider: 'm', upstreamModel: 'mock' },
        { id: 'bench-embed', kind: 'embedding', provider: 'o', upstreamModel: 'mock-embed' },
      ],
      groups: [{ name: 'default', models: ['*'] }],
      keys: [{ key: BENCH_KEY, account: 'bench', group: 'default' }],
    }),
  );
  return file;
}
