import autocannon from 'autocannon';
import http from 'node:http';

export interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** Frees the keep-alive sockets of the sequential measurements. */
export function closeAgent(): void {
  agent.destroy();
}

/** One request; resolves with [time to first byte, total] in ms. */
export function timedRequest(t: Target): Promise<[number, number]> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    let first = 0;
    const req = http.request(t.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...t.headers } }, (res) => {
      res.on('data', () => {
        if (!first) first = Number(process.hrtime.bigint() - start) / 1e6;
      });
      res.on('end', () => {
        if ((res.statusCode ?? 0) >= 300) reject(new Error(`${t.name}: HTTP ${res.statusCode}`));
        else resolve([first, Number(process.hrtime.bigint() - start) / 1e6]);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(t.body);
  });
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
};

/** Interleaved rounds of sequential requests: every target sees the same machine conditions. */
export async function interleavedSequential(targets: Target[], rounds: number, perRound: number, pick: 0 | 1 = 1) {
  const samples = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const roundMedians = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const t of targets) {
      const xs: number[] = [];
      for (let i = 0; i < perRound; i++) xs.push((await timedRequest(t))[pick]);
      samples.get(t.name)!.push(...xs);
      roundMedians.get(t.name)!.push(median(xs));
    }
  }
  return Object.fromEntries(
    targets.map((t) => [t.name, { median: median(roundMedians.get(t.name)!), p99: percentile(samples.get(t.name)!, 99) }]),
  );
}

export interface LoadResult {
  rps: number;
  /** completed requests */
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(t: Target, connections: number, seconds: number, extra: Partial<autocannon.Options> = {}): Promise<LoadResult> {
  const opts: Record<string, unknown> = {
    url: t.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...t.headers },
    body: t.body,
    connections,
    duration: seconds,
    ...extra,
  };
  if (opts.amount) delete opts.duration; // a fixed number of requests instead of a time box
  const r = await autocannon(opts as unknown as autocannon.Options);
  // completed requests over the run's real length: the per-second average reads 0 for a run shorter than its first sample
  const rps = r.duration > 0 ? r.requests.total / r.duration : r.requests.average;
  return { rps, requests: r.requests.total, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

/** Warm-up, then `trials` runs; the median trial by throughput. */
export async function loadTrials(
  t: Target,
  connections: number,
  seconds: number,
  trials: number,
  extra: Partial<autocannon.Options> = {},
): Promise<LoadResult> {
  if (trials > 1) await load(t, connections, 1, extra); // warm-up (the smoke profile skips it)
  const runs: LoadResult[] = [];
  for (let i = 0; i < trials; i++) runs.push(await load(t, connections, seconds, extra));
  runs.sort((a, b) => a.rps - b.rps);
  return runs[Math.floor(runs.length / 2)]!;
}
