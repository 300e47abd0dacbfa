import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * /metrics with WORKERS=N (docs/scaling.md, "Metrics with WORKERS > 1"). Whichever worker is asked, it asks the
 * primary, which collects every live worker's registry over the cluster's IPC channel and answers one exposition:
 * - counters and histograms are summed over the workers, and a worker that exits leaves its last collected counts
 *   with the primary (`retired`), so a sum never goes backwards when a worker is replaced;
 * - gauges carry a `worker` label (memory, event loop, the circuit breakers: state each worker has for itself),
 *   except those that are one number for the instance: summed (open streams) or read from the shared store (tasks).
 */
export type MetricSnapshot = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;
type Sample = MetricSnapshot[number]['values'][number] & { metricName?: string };

/** Gauges whose instance-wide value is the workers' sum. */
const SUMMED_GAUGES = new Set(['gateway_active_streams', 'gateway_usage_rows_pending']);
/** Gauges read from the shared store: every worker reports the same figure, so one is shown. */
const SHARED_GAUGES = new Set(['gateway_tasks', 'gateway_task_queue_oldest_seconds', 'gateway_worker_poll_lag_seconds']);

const isCumulative = (m: MetricSnapshot[number]) => String(m.type) === 'counter' || String(m.type) === 'histogram';

/** The workers' snapshots and what exited workers had counted, as one registry. Pure: tested without a cluster. */
export function aggregateSnapshots(live: Map<string, MetricSnapshot>, retired: MetricSnapshot): Registry {
  const perWorker = [...live].map(([worker, metrics]) =>
    metrics.map((m) => {
      if (isCumulative(m) || SUMMED_GAUGES.has(m.name)) return { ...m, aggregator: 'sum' as const };
      if (SHARED_GAUGES.has(m.name)) return { ...m, aggregator: 'first' as const };
      // one series per worker: `sum` over series that never collide is each worker's own value
      return { ...m, aggregator: 'sum' as const, values: m.values.map((v) => ({ ...v, labels: { ...v.labels, worker } })) };
    }),
  );
  return AggregatorRegistry.aggregate([...perWorker, retired.map((m) => ({ ...m, aggregator: 'sum' as const }))]);
}

/** `retired` plus the counters and histograms of a worker that exited, summed series by series. */
export function retire(retired: MetricSnapshot, last: MetricSnapshot): MetricSnapshot {
  const byName = new Map(retired.map((m) => [m.name, { ...m, values: m.values.map((v) => ({ ...v })) }]));
  for (const m of last.filter(isCumulative)) {
    const into = byName.get(m.name) ?? { ...m, values: [] };
    byName.set(m.name, into);
    for (const v of m.values) {
      const same = into.values.find((x) => seriesKey(x) === seriesKey(v));
      if (same) same.value += v.value;
      else into.values.push({ ...v });
    }
  }
  return [...byName.values()];
}

const seriesKey = (v: Sample) => `${v.metricName ?? ''}${JSON.stringify(Object.entries(v.labels).sort(([a], [b]) => a.localeCompare(b)))}`;

interface MetricsMessage {
  gatewayMetrics: 'scrape' | 'collect' | 'snapshot' | 'result';
  id: string;
  metrics?: MetricSnapshot;
  text?: string;
  error?: string;
}
const isMetricsMessage = (m: unknown): m is MetricsMessage =>
  typeof m === 'object' && m !== null && typeof (m as MetricsMessage).gatewayMetrics === 'string';

/** In a worker: answers the primary's collection with this worker's registry. */
export function serveSnapshotsToPrimary(registry: Registry): void {
  process.on('message', (m: unknown) => {
    if (!isMetricsMessage(m) || m.gatewayMetrics !== 'collect') return;
    void registry
      .getMetricsAsJSON()
      .then((metrics) => process.send?.({ gatewayMetrics: 'snapshot', id: m.id, metrics }))
      .catch(() => process.send?.({ gatewayMetrics: 'snapshot', id: m.id, metrics: undefined }));
  });
}

/** In a worker: the whole instance's exposition, from the primary. */
export function scrapeThroughPrimary(timeoutMs = 10_000): Promise<string> {
  const id = randomUUID();
  if (!process.send) return Promise.reject(new Error('no cluster primary to ask'));
  return new Promise((resolve, reject) => {
    const done = (m: unknown) => {
      if (!isMetricsMessage(m) || m.gatewayMetrics !== 'result' || m.id !== id) return;
      clearTimeout(timer);
      process.off('message', done);
      if (m.text === undefined) reject(new Error(m.error ?? 'the primary sent no metrics'));
      else resolve(m.text);
    };
    const timer = setTimeout(() => {
      process.off('message', done);
      reject(new Error('the cluster primary did not answer the metrics scrape'));
    }, timeoutMs);
    process.on('message', done);
    process.send?.({ gatewayMetrics: 'scrape', id });
  });
}

/**
 * In the primary: keeps each worker's last snapshot and what exited workers counted, and answers a worker's scrape
 * with the aggregate. A worker that does not answer within `collectTimeoutMs` is shown with its last snapshot.
 */
export class ClusterMetrics {
  private readonly last = new Map<Worker, MetricSnapshot>();
  private retired: MetricSnapshot = [];
  private readonly waiting = new Map<string, (metrics: MetricSnapshot | undefined) => void>();

  constructor(private readonly collectTimeoutMs = 3000) {}

  /** Wires a worker in: its scrapes answered, its snapshots kept, its counts retired when it exits. */
  attach(worker: Worker): void {
    worker.on('message', (m: unknown) => {
      if (!isMetricsMessage(m)) return;
      if (m.gatewayMetrics === 'snapshot') this.waiting.get(`${worker.id}:${m.id}`)?.(m.metrics);
      if (m.gatewayMetrics === 'scrape')
        void this.scrape().then(
          (text) => worker.isConnected() && worker.send({ gatewayMetrics: 'result', id: m.id, text }),
          (e: Error) => worker.isConnected() && worker.send({ gatewayMetrics: 'result', id: m.id, error: e.message }),
        );
    });
    worker.once('exit', () => {
      const last = this.last.get(worker);
      if (last) this.retired = retire(this.retired, last);
      this.last.delete(worker);
    });
  }

  async scrape(): Promise<string> {
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && w.isConnected());
    await Promise.all(workers.map((w) => this.collect(w)));
    const live = new Map<string, MetricSnapshot>();
    for (const [w, snapshot] of this.last) live.set(String(w.id), snapshot);
    return aggregateSnapshots(live, this.retired).metrics();
  }

  private collect(worker: Worker): Promise<void> {
    const id = randomUUID();
    const key = `${worker.id}:${id}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(undefined), this.collectTimeoutMs);
      const finish = (metrics: MetricSnapshot | undefined) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        // a worker that exited meanwhile has been retired: its snapshot must not come back as a live one
        if (metrics && !worker.isDead()) this.last.set(worker, metrics);
        resolve();
      };
      this.waiting.set(key, finish);
      worker.send({ gatewayMetrics: 'collect', id });
    });
  }
}
