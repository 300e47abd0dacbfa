/** One sample of the Prometheus text format: `name{label="v",…} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses GET /metrics (the admin's): comments skipped, label values unescaped. */
export function parseMetrics(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

const BREAKER_STATES = ['closed', 'half-open', 'open'];

/**
 * `gateway_circuit_state` per deployment (0 closed, 1 half-open, 2 open). With WORKERS > 1 each worker has its own
 * breaker and reports it with a `worker` label: a deployment shows its worst state, and `detail` says how many
 * workers are in it when they disagree.
 */
export function circuitStates(samples: Sample[]) {
  const byDeployment = new Map<string, { provider: string; upstreamModel: string; values: number[] }>();
  for (const s of samples.filter((x) => x.name === 'gateway_circuit_state')) {
    const key = JSON.stringify([s.labels.provider, s.labels.upstream_model]);
    const d = byDeployment.get(key) ?? { provider: s.labels.provider ?? '', upstreamModel: s.labels.upstream_model ?? '', values: [] };
    d.values.push(s.value);
    byDeployment.set(key, d);
  }
  return [...byDeployment.values()].map(({ provider, upstreamModel, values }) => {
    const worst = Math.max(...values);
    const state = BREAKER_STATES[worst] ?? String(worst);
    const inWorst = values.filter((v) => v === worst).length;
    return { provider, upstreamModel, state, ...(inWorst < values.length ? { detail: `${inWorst} of ${values.length} workers` } : {}) };
  });
}

/** `gateway_tasks` by status. */
export const taskCounts = (samples: Sample[]) =>
  Object.fromEntries(samples.filter((s) => s.name === 'gateway_tasks').map((s) => [s.labels.status, s.value])) as Record<string, number>;
