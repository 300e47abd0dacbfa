/**
 * The crash scenario behind test/process/video-crash.test.ts and `npm run crash:video`: a gateway process (DATA_DIR
 * on disk; PGlite there, or a fresh Postgres database when TEST_DATABASE_URL is set) drives video tasks on the
 * fake Veo, Sora and Ark upstreams and is SIGKILLed at random moments, then restarted, several times. Clients
 * create with an Idempotency-Key and retry after a crash. The report says whether every task ended terminal,
 * none was submitted upstream twice (the fakes' counts) and none was lost.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { fakeMp4, type FakeTaskBook } from '@gateway/testkit';
import { startFakeArk } from '@gateway/provider-ark/testing';
import { startFakeVeo } from '@gateway/provider-google/testing';
import { startFakeSora } from '@gateway/provider-openai/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { BETA_KEY, INBOUND_FORMATS, inbound, UPSTREAM_MODELS, upstreamVideoConfig, type UpstreamName } from './upstream-video-gateways';
import { seedEmbeddedStore } from './gateway-process';

export interface CrashRunOptions {
  tasks: number;
  kills: number;
  /** a kill comes this long (ms, uniformly random) after the gateway is up */
  killAfterMs?: [number, number];
  /** how long the last run may take to finish every task */
  settleMs?: number;
  log?: (line: string) => void;
  /** deterministic kill moments and scripts */
  seed?: number;
}

export interface CrashRunReport {
  tasks: number;
  kills: number;
  /** statuses of the tasks at the end */
  byStatus: Record<string, number>;
  byErrorCode: Record<string, number>;
  /** tasks that never got an id, or are not terminal, or whose record is gone */
  lost: string[];
  notTerminal: string[];
  /** prompts the upstreams received more than once */
  submittedTwice: string[];
  /** succeeded tasks whose content differs from what the upstream served */
  contentMismatch: string[];
  /** succeeded tasks the upstream never received (impossible unless the store lies) */
  succeededUnsubmitted: string[];
  submissionsUpstream: number;
  /**
   * The status of one more task created in the final run, after the kills: the gateway still completes new work.
   * (How many of the crash-time tasks succeed depends on where the kills land: under load every submission may be in
   * flight at a kill and fail as submission_unknown, which is the rule, not a fault.)
   */
  afterRestarts: string | undefined;
  store: 'pglite' | 'postgres';
  elapsedMs: number;
}

/** A small seeded generator, so a failing run can be repeated. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

const UPSTREAMS: UpstreamName[] = ['veo', 'sora', 'ark'];
const ROOT = path.resolve(__dirname, '../../../..');

interface GatewayProcess {
  proc: ChildProcess;
  url: string;
  stop(signal: NodeJS.Signals): Promise<void>;
}

/**
 * main.ts in a node process of its own (`node --import tsx`, not the tsx CLI, whose SIGKILL would leave
 * its child gateway running), resolved once it prints its listening line.
 */
async function startGatewayProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<GatewayProcess> {
  seedEmbeddedStore(env);
  const proc = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stderr!.on('data', (d) => (out += d));
  // Never outlive the test process, whatever happens to it.
  const orphanGuard = () => proc.kill('SIGKILL');
  process.once('exit', orphanGuard);
  const exited = new Promise<void>((r) =>
    proc.once('exit', () => {
      process.removeListener('exit', orphanGuard);
      r();
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${out}`)), timeoutMs);
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /Gateway listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code}:\n${out}`));
    });
  });
  return {
    proc,
    url,
    async stop(signal) {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      await exited;
    },
  };
}

async function freshPostgres(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `crash_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6).toString(36)}`;
  const admin = knex({ client: 'pg', connection: url });
  await admin.raw(`create database "${name}"`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      await admin.raw(`drop database if exists "${name}" with (force)`).catch(() => undefined); // cleanup only
      await admin.destroy();
    },
  };
}

export async function runVideoCrashScenario(o: CrashRunOptions): Promise<CrashRunReport> {
  const log = o.log ?? (() => undefined);
  const random = rng(o.seed ?? Date.now());
  const between = (a: number, b: number) => a + Math.floor(random() * (b - a));
  const script = () => ({ queuedMs: between(100, 700), runningMs: between(300, 1800) });
  const [veo, sora, ark] = await Promise.all([
    startFakeVeo({ script, redirectDownloads: true }),
    startFakeSora({ script }),
    startFakeArk({ script }),
  ]);
  const books: Record<UpstreamName, FakeTaskBook> = { veo: veo.book, sora: sora.book, ark: ark.book };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-crash-'));
  const configPath = path.join(dataDir, 'gateway.json');
  writeFileSync(configPath, JSON.stringify(upstreamVideoConfig({ veo, sora, ark }, 100_000)));
  const pg = process.env.TEST_DATABASE_URL ? await freshPostgres(process.env.TEST_DATABASE_URL) : undefined;
  const env: Record<string, string> = {
    GATEWAY_CONFIG: configPath,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    VIDEO_WORKER_INTERVAL_MS: '50',
    VIDEO_WORKER_CONCURRENCY: '32',
    VIDEO_WORKER_LEASE_MS: '2000',
    VIDEO_POLL_MIN_MS: '150',
    VIDEO_POLL_MAX_MS: '600',
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  };
  const started = Date.now();

  // Task i: upstream i mod 3, format (i div 3) mod 3; some fail or expire upstream.
  const plan = Array.from({ length: o.tasks }, (_, i) => ({
    prompt: `crash task ${i}${i % 10 === 7 ? ' [fail]' : i % 14 === 4 ? ' [expire]' : ''}`,
    up: UPSTREAMS[i % 3],
    format: INBOUND_FORMATS[Math.floor(i / 3) % 3],
    key: `crash-${i}`,
    id: undefined as string | undefined,
  }));

  /** Creates what has no id yet, 16 at a time, until done or the gateway dies; the Idempotency-Key makes a retry safe. */
  const createPending = async (gw: GatewayProcess) => {
    const pending = plan.filter((t) => !t.id);
    for (let i = 0; i < pending.length; i += 16) {
      await Promise.all(
        pending.slice(i, i + 16).map(async (t) => {
          try {
            const res = await fetch(`${gw.url}${createPath(t.format!, UPSTREAM_MODELS[t.up!])}`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${BETA_KEY}`,
                'x-goog-api-key': BETA_KEY,
                'idempotency-key': t.key,
              },
              body: JSON.stringify(createBody(t.format!, UPSTREAM_MODELS[t.up!], t.prompt)),
            });
            const body = (await res.json()) as Record<string, string>;
            if (res.status === 200) t.id = (body.id ?? body.name?.split('/').at(-1))!;
          } catch {
            // the gateway died under us: created or not, the retry with the same key tells
          }
        }),
      );
      if (gw.proc.exitCode !== null || gw.proc.signalCode !== null) return;
    }
  };

  let gw: GatewayProcess | undefined;
  try {
    for (let k = 0; k < o.kills; k++) {
      gw = await startGatewayProcess(env);
      const [lo, hi] = o.killAfterMs ?? [300, 2500];
      const after = between(lo, hi);
      log(`run ${k + 1}: up at ${gw.url}; SIGKILL in ${after} ms (${plan.filter((t) => t.id).length}/${o.tasks} created)`);
      const creating = createPending(gw);
      await new Promise((r) => setTimeout(r, after));
      await gw.stop('SIGKILL');
      await creating;
    }
    gw = await startGatewayProcess(env);
    log(`final run: up at ${gw.url}`);
    await createPending(gw);
    const fresh = {
      prompt: 'crash task after the restarts',
      up: UPSTREAMS[1],
      format: INBOUND_FORMATS[0],
      key: 'crash-after',
      id: undefined as string | undefined,
    };
    plan.push(fresh);
    await createPending(gw);
    plan.pop();
    const deadline = Date.now() + (o.settleMs ?? 60_000);
    const states = new Map<string, { status: string; error?: { code: string } | null }>();
    for (;;) {
      const open = [...plan, fresh].filter((t) => t.id && !isDone(states.get(t.id)?.status));
      await Promise.all(open.map(async (t) => states.set(t.id!, await inbound('tasks', gw!.url).read(t.id!))));
      if (![...plan, fresh].some((t) => t.id && !isDone(states.get(t.id)?.status)) || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }

    const report: CrashRunReport = {
      tasks: o.tasks,
      kills: o.kills,
      byStatus: {},
      byErrorCode: {},
      lost: [],
      notTerminal: [],
      submittedTwice: [],
      contentMismatch: [],
      succeededUnsubmitted: [],
      submissionsUpstream: veo.book.submissions.length + sora.book.submissions.length + ark.book.submissions.length - (fresh.id ? 1 : 0),
      afterRestarts: fresh.id ? states.get(fresh.id)?.status : undefined,
      store: pg ? 'postgres' : 'pglite',
      elapsedMs: 0,
    };
    for (const t of plan) {
      const st = t.id ? states.get(t.id) : undefined;
      if (!t.id || !st?.status) {
        report.lost.push(t.prompt);
        continue;
      }
      report.byStatus[st.status] = (report.byStatus[st.status] ?? 0) + 1;
      if (st.error?.code) report.byErrorCode[st.error.code] = (report.byErrorCode[st.error.code] ?? 0) + 1;
      if (!isDone(st.status)) report.notTerminal.push(`${t.id} (${st.status})`);
      const submitted = books[t.up!].submissions.filter((x) => x.prompt === t.prompt);
      if (submitted.length > 1) report.submittedTwice.push(t.prompt);
      if (st.status === 'succeeded') {
        if (submitted.length !== 1) report.succeededUnsubmitted.push(t.prompt);
        else {
          const c = await inbound(t.format!, gw.url).content(t.id);
          if (c.status !== 200 || !c.bytes.equals(fakeMp4(submitted[0]!.id))) report.contentMismatch.push(t.id);
        }
      }
    }
    report.elapsedMs = Date.now() - started;
    return report;
  } finally {
    await gw?.stop('SIGTERM');
    await Promise.all([veo.close(), sora.close(), ark.close()]);
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const isDone = (s: string | undefined) => s !== undefined && !['queued', 'running'].includes(s);

function createPath(format: string, model: string): string {
  if (format === 'gemini') return `/v1beta/models/${model}:predictLongRunning`;
  return format === 'openai' ? '/v1/videos' : '/v1/contents/generations/tasks';
}

function createBody(format: string, model: string, prompt: string): unknown {
  if (format === 'gemini') return { instances: [{ prompt }], parameters: { durationSeconds: 4, aspectRatio: '16:9', resolution: '720p' } };
  if (format === 'openai') return { model, prompt, seconds: '4', size: '1280x720' };
  return { model, content: [{ type: 'text', text: prompt }], ratio: '16:9', resolution: '720p', duration: 4 };
}
