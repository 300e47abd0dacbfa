/** The scenarios of `npm run bench` that start gateways of their own: on PostgreSQL (video tasks), and WORKERS=1 vs 2. */
import { rmSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import type { BenchResults, PROFILES } from '../run';
import { chatBody, gatewayConfig, startGateway } from './gateways';
import { load, loadTrials, timedRequest, type LoadResult, type Target } from './measure';
import { BENCH_KEY, treeCpuSeconds, treeRssMb, type Proc } from './processes';
import { gatewayTarget } from './targets';

/** Opens n slow streams at once and reads the gateway's RSS while all are open. */
export async function openManyStreams(t: Target, n: number, pid: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  let opened = 0;
  const reqs: http.ClientRequest[] = [];
  let giveUp: NodeJS.Timeout | undefined;
  const allOpen = new Promise<void>((resolve, reject) => {
    for (let i = 0; i < n; i++) {
      const req = http.request(t.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...t.headers } }, (res) => {
        res.once('data', () => {
          if (++opened === n) resolve();
        });
        res.resume();
      });
      req.on('error', (e) => (reqs.length ? undefined : reject(e)));
      req.end(t.body);
      reqs.push(req);
    }
    giveUp = setTimeout(() => resolve(), 60000);
  });
  await allOpen;
  clearTimeout(giveUp);
  await new Promise((r) => setTimeout(r, 1000));
  const rss = treeRssMb(pid);
  for (const r of reqs) r.destroy();
  agent.destroy();
  await new Promise((r) => setTimeout(r, 1000));
  return rss;
}

/** A fresh database for one scenario; dropped by the returned function. */
async function scratchDatabase(databaseUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const dbName = `${prefix}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${dbName}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
      await c.end();
    },
  };
}

/** The same non-streaming load at c=128 against WORKERS=1 and WORKERS=2, each on a database of its own. */
export async function workersScenario(
  databaseUrl: string,
  redisUrl: string,
  P: (typeof PROFILES)[keyof typeof PROFILES],
  instantPort: number,
  log: (l: string) => void,
): Promise<NonNullable<BenchResults['workers']>> {
  const out: Partial<Record<1 | 2, LoadResult>> = {};
  for (const n of [1, 2] as const) {
    const db = await scratchDatabase(databaseUrl, `gwbench_w${n}`);
    let gw: Awaited<ReturnType<typeof startGateway>> | undefined;
    try {
      gw = await startGateway(
        `gateway-workers-${n}`,
        // a per-key limit high enough never to refuse, so every request takes its Redis count as in production
        gatewayConfig({ instant: instantPort }, { limits: { requestsPerMinutePerKey: 1_000_000_000 } }),
        { DATABASE_URL: db.url, REDIS_URL: redisUrl, WORKERS: String(n) },
        n === 1 ? /Gateway listening/ : /cluster started/,
      );
      const t: Target = {
        name: `workers-${n}`,
        url: `${gw.url}/v1/chat/completions`,
        headers: { authorization: `Bearer ${BENCH_KEY}` },
        body: chatBody('bench-instant', false),
      };
      // warmed up like the other targets: each worker compiles its own hot path, so one request is not enough
      await load(t, 128, P.seconds);
      out[n] = await loadTrials(t, 128, P.seconds, P.trials);
      log(`  WORKERS=${n}: ${out[n]!.rps.toFixed(0)} req/s`);
    } finally {
      await gw?.proc.stop();
      if (gw) rmSync(gw.dir, { recursive: true, force: true });
      await db.drop();
    }
  }
  return { 1: out[1]!, 2: out[2]! };
}

export async function taskScenario(
  databaseUrl: string,
  P: (typeof PROFILES)[keyof typeof PROFILES],
  procs: Proc[],
  dirs: string[],
  log: (l: string) => void,
  ports: { instant: number; trickle: number },
): Promise<NonNullable<BenchResults['tasks']>> {
  const db = await scratchDatabase(databaseUrl, 'gwbench');
  try {
    const gw = await startGateway(
      'gateway-pg',
      gatewayConfig({ instant: ports.instant, trickle: ports.trickle }, { limits: { maxActiveTasksPerAccount: 1_000_000 } }),
      { DATABASE_URL: db.url },
    );
    procs.push(gw.proc);
    dirs.push(gw.dir);
    // idle and CPU per chat request as on the embedded store, before the task load below fills the process
    const chat = gatewayTarget(gw.url, 'chat', { name: 'gateway-pg', model: 'bench-instant' });
    await timedRequest(chat);
    await new Promise((r) => setTimeout(r, 3000));
    const idleRssMb = treeRssMb(gw.proc.child.pid!);
    await load(chat, 16, P.seconds); // warm-up, as the embedded gateway's sweep warms it
    const cpuBefore = treeCpuSeconds(gw.proc.child.pid!);
    const chatRun = await load(chat, 16, P.seconds);
    const chatCpuPerRequestUs = ((treeCpuSeconds(gw.proc.child.pid!) - cpuBefore) / Math.max(1, chatRun.requests)) * 1e6;
    log(`  PostgreSQL store: idle ${idleRssMb.toFixed(0)} MB, ${chatCpuPerRequestUs.toFixed(0)} µs a chat request`);
    const create: Target = {
      name: 'create',
      url: `${gw.url}/v1/contents/generations/tasks`,
      headers: { authorization: `Bearer ${BENCH_KEY}` },
      body: JSON.stringify({ model: 'bench-video', content: [{ type: 'text', text: 'a benchmark video' }] }),
    };
    const created = await load(create, 16, P.seconds);
    log(`  creations: ${created.rps.toFixed(0)}/s (${created.non2xx} non-2xx)`);
    const ids: string[] = [];
    for (let i = 0; i < P.tasksForReads; i++) {
      const res = await fetch(create.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...create.headers },
        body: create.body,
      });
      ids.push(((await res.json()) as { id: string }).id);
    }
    let i = 0;
    const reads = await loadTrials(
      {
        name: 'read',
        url: `${gw.url}/v1/contents/generations/tasks/${ids[0]}`,
        headers: { authorization: `Bearer ${BENCH_KEY}` },
        body: '',
      },
      16,
      P.seconds,
      P.trials,
      {
        method: 'GET',
        body: undefined,
        requests: [
          {
            setupRequest: (r: Record<string, unknown>) => ({
              ...r,
              method: 'GET',
              body: undefined,
              path: `/v1/contents/generations/tasks/${ids[i++ % ids.length]}`,
            }),
          },
        ],
      } as never,
    );
    const count = await fetch(`${gw.url}/v1/contents/generations/tasks?page_size=1`, { headers: create.headers }).then(
      (r) => r.json() as Promise<{ total: number }>,
    );
    // The memory target once more with the store outside the process: what the gateway itself holds per stream.
    const trickle: Target = {
      name: 'gateway-pg',
      url: `${gw.url}/v1/chat/completions`,
      headers: { authorization: `Bearer ${BENCH_KEY}` },
      body: chatBody('bench-trickle', true),
    };
    const rssOpenStreamsMb = await openManyStreams(trickle, P.openStreams, gw.proc.child.pid!);
    log(`  RSS with ${P.openStreams} open streams, PostgreSQL store: ${rssOpenStreamsMb.toFixed(0)} MB`);
    return {
      creationsPerSecond: created.rps,
      readsPerSecond: reads.rps,
      readP99: reads.p99,
      activeTasks: count.total,
      rssOpenStreamsMb,
      idleRssMb,
      chatCpuPerRequestUs,
    };
  } finally {
    await db.drop();
  }
}
