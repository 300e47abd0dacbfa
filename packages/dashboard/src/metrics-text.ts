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
      labels[l[1]] = l[2].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

const BREAKER_STATES = ['closed', 'half-open', 'open'];

/** `gateway_circuit_state` per deployment (0 closed, 1 half-open, 2 open). */
export const circuitStates = (samples: Sample[]) =>
  samples
    .filter((s) => s.name === 'gateway_circuit_state')
    .map((s) => ({
      provider: s.labels.provider,
      upstreamModel: s.labels.upstream_model,
      state: BREAKER_STATES[s.value] ?? String(s.value),
    }));

/** `gateway_tasks` by status. */
export const taskCounts = (samples: Sample[]) =>
  Object.fromEntries(samples.filter((s) => s.name === 'gateway_tasks').map((s) => [s.labels.status, s.value])) as Record<string, number>;
