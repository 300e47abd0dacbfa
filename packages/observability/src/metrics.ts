import cluster from 'node:cluster';
import client from 'prom-client';
import {
  ERROR_REASONS,
  type ResponseCacheObserver,
  type RoutingObserver,
  type TaskStatistics,
  type UsageLog,
  type UsageRow,
} from '@gateway/core';
import { openStreamCount } from '@gateway/http-kit';
import type { ObservabilityLogger } from './observability-logger';
import { scrapeThroughPrimary, serveSnapshotsToPrimary } from './cluster-metrics';
import { OpenRequests, type FinishedRequest } from './request-observer';

/** Latency buckets in seconds, the same for an answer and for its upstream call so the two compare. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * Prometheus metrics. Every answer is counted once when its response closes (refusals and 499s included), labelled
 * from its usage row when the router recorded one; latency and upstream figures come from the usage rows; task
 * figures are read from the store at scrape time.
 */
export class GatewayMetrics {
  readonly registry = new client.Registry();
  /** the usage rows of requests still open, for their one count and log line */
  readonly openRequests = new OpenRequests();
  private readonly requests = this.counter(
    'gateway_requests_total',
    'Answers by format, model and status (499: the caller went away; format "none" when no route claimed the path, model "none" when no model was resolved); client_fault="true" on 5xx refusals the caller caused (model_not_in_group)',
    ['format', 'model', 'status', 'client_fault'],
  );
  private readonly latency = this.histogram('gateway_request_duration_seconds', 'Request latency by format', ['format'], LATENCY_BUCKETS);
  private readonly ttft = this.histogram(
    'gateway_time_to_first_token_seconds',
    'Time to first token of streams',
    ['format'],
    [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  private readonly streamDuration = this.histogram(
    'gateway_stream_duration_seconds',
    'Duration of streamed answers, first request byte to last event',
    ['format'],
    [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  );
  private readonly upstream = this.counter('gateway_upstream_requests_total', 'Upstream calls by provider and outcome', [
    'provider',
    'outcome',
  ]);
  private readonly attempts = this.counter(
    'gateway_upstream_attempts_total',
    'Every call to an upstream deployment, failed attempts before a failover included, by outcome',
    ['provider', 'model', 'outcome'],
  );
  private readonly breakerTransitions = this.counter('gateway_circuit_transitions_total', 'Circuit breaker state changes per deployment', [
    'provider',
    'upstream_model',
    'to',
  ]);
  private readonly upstreamLatency = this.histogram(
    'gateway_upstream_duration_seconds',
    'Latency of requests answered by an upstream, by provider',
    ['provider'],
    LATENCY_BUCKETS,
  );
  private readonly tokens = this.counter('gateway_tokens_total', 'Tokens by model and direction', ['model', 'direction']);
  private readonly guardrailHits = this.counter(
    'gateway_guardrail_hits_total',
    'Guardrail matches (and webhook guardrails that failed open), by guardrail id, mode and phase (input, output)',
    ['guardrail', 'mode', 'phase'],
  );
  private readonly cacheLookups = this.counter(
    'gateway_response_cache_lookups_total',
    'What the response cache did per answer of a model with a cache (hit, miss, bypass), by kind (text, embedding, rerank) and model',
    ['kind', 'model', 'outcome'],
  );
  private readonly cacheBytes = this.counter(
    'gateway_response_cache_stored_bytes_total',
    'Bytes of answers written to the response cache, by kind and model',
    ['kind', 'model'],
  );
  private taskCache: { at: number; rows: Array<{ status: string; n: number; oldest: number | null }> } = { at: 0, rows: [] };

  constructor(
    private readonly tasks: TaskStatistics,
    extra: Array<(registry: client.Registry) => void> = [],
    /** a worker of WORKERS > 1: its /metrics answers for the whole instance */
    private readonly inCluster = cluster.isWorker,
  ) {
    client.collectDefaultMetrics({ register: this.registry });
    new client.Gauge({
      name: 'gateway_active_streams',
      help: 'Open SSE streams',
      registers: [this.registry],
      collect() {
        this.set(openStreamCount());
      },
    });
    // prom-client calls collect() with the metric as `this`; the gateway is reached through this name.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    new client.Gauge({
      name: 'gateway_tasks',
      help: 'Video tasks by status',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const r of await self.taskCounts()) this.set({ status: r.status }, r.n);
      },
    });
    new client.Gauge({
      name: 'gateway_task_queue_oldest_seconds',
      help: 'Age of the oldest queued task',
      registers: [this.registry],
      async collect() {
        const q = (await self.taskCounts()).find((r) => r.status === 'queued');
        this.set(q?.oldest ? Math.max(0, (Date.now() - q.oldest) / 1000) : 0);
      },
    });
    new client.Gauge({
      name: 'gateway_worker_poll_lag_seconds',
      help: 'How far the most overdue active task is past its next poll time',
      registers: [this.registry],
      async collect() {
        const due = await self.tasks.earliestDuePoll().catch(() => null);
        this.set(due ? Math.max(0, (Date.now() - due.getTime()) / 1000) : 0);
      },
    });
    for (const add of extra) add(this.registry);
    if (this.inCluster) serveSnapshotsToPrimary(this.registry);
  }

  /**
   * The exposition /metrics answers: this process's registry, or with WORKERS > 1 the whole instance's, which the
   * cluster's primary gathers from every worker (cluster-metrics.ts).
   */
  scrape(): Promise<string> {
    return this.inCluster ? scrapeThroughPrimary() : this.registry.metrics();
  }

  /** Circuit breaker state per deployment: 0 closed, 1 half-open, 2 open. */
  watchBreakers(states: () => Array<{ provider: string; upstreamModel: string; state: string }>): void {
    new client.Gauge({
      name: 'gateway_circuit_state',
      help: 'Circuit breaker per deployment: 0 closed, 1 half-open, 2 open',
      labelNames: ['provider', 'upstream_model'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const s of states())
          this.set({ provider: s.provider, upstream_model: s.upstreamModel }, s.state === 'open' ? 2 : s.state === 'half-open' ? 1 : 0);
      },
    });
  }

  /** Counts each upstream attempt and breaker transition; failures and transitions are also logged at warn. */
  routingObserver(logger: ObservabilityLogger): RoutingObserver {
    return {
      attempt: (a) => {
        this.attempts.inc({ provider: a.provider, model: a.upstreamModel, outcome: a.outcome });
        if (a.outcome !== 'ok' && a.outcome !== 'cancelled')
          logger.warn('upstream attempt failed', {
            requestId: a.call?.requestId,
            ...(a.call ? this.openRequests.caller(a.call.requestId) : {}),
            model: a.call?.model,
            provider: a.provider,
            upstreamModel: a.upstreamModel,
            outcome: a.outcome,
            upstreamStatus: a.upstreamStatus,
            // the upstream's own words, bounded, with the provider's credentials cut out (provider-kit's redacting ports)
            upstreamMessage: a.upstreamMessage,
          });
      },
      breakerChanged: (t) => {
        this.breakerTransitions.inc({ provider: t.provider, upstream_model: t.upstreamModel, to: t.to });
        logger.warn('circuit breaker changed', { provider: t.provider, upstreamModel: t.upstreamModel, from: t.from, to: t.to });
      },
    };
  }

  /** Counts one guardrail hit (never what it matched). */
  guardrailHit(hit: { guardrail: string; mode: string; phase: string }): void {
    this.guardrailHits.inc({ guardrail: hit.guardrail, mode: hit.mode, phase: hit.phase });
  }

  /** Counts the response cache's lookups and the bytes it stores. */
  responseCacheObserver(): ResponseCacheObserver {
    return {
      looked: (kind, model, outcome) => this.cacheLookups.inc({ kind, model, outcome }),
      stored: (kind, model, bytes) => this.cacheBytes.inc({ kind, model }, bytes),
    };
  }

  /** Task counts, cached for a second so scrapes never load the store. */
  private async taskCounts() {
    if (Date.now() - this.taskCache.at < 1000) return this.taskCache.rows;
    // the database down: the last counts, so a scrape still shows what matters then (e.g. usage rows waiting)
    const rows = await this.tasks.countsByStatus().catch(() => null);
    if (!rows) return this.taskCache.rows;
    this.taskCache = {
      at: Date.now(),
      rows: rows.map((r) => ({ status: r.status, n: r.count, oldest: r.oldestCreatedAt?.getTime() ?? null })),
    };
    return this.taskCache.rows;
  }

  /** One answer, as the request observer saw it close. */
  countRequest(r: FinishedRequest): void {
    const clientFault = r.reason !== undefined && ERROR_REASONS[r.reason]?.clientFault === true;
    this.requests.inc({ format: r.format, model: r.facts?.model ?? 'none', status: String(r.status), client_fault: String(clientFault) });
  }

  observe(row: UsageRow): void {
    this.openRequests.noteUsage(row);
    const model = row.model ?? 'none';
    if (row.latencyMs !== undefined) this.latency.observe({ format: row.format }, row.latencyMs / 1000);
    if (row.ttftMs !== undefined && row.ttftMs !== null) {
      this.ttft.observe({ format: row.format }, row.ttftMs / 1000);
      if (row.latencyMs !== undefined) this.streamDuration.observe({ format: row.format }, row.latencyMs / 1000);
    }
    if (row.provider) {
      this.upstream.inc({ provider: row.provider, outcome: row.status === 'ok' ? 'ok' : (row.errorCode ?? row.status) });
      if (row.latencyMs !== undefined && row.status === 'ok')
        this.upstreamLatency.observe({ provider: row.provider }, row.latencyMs / 1000);
    }
    if (row.inputTokens) this.tokens.inc({ model, direction: 'input' }, row.inputTokens);
    if (row.outputTokens) this.tokens.inc({ model, direction: 'output' }, row.outputTokens);
  }

  /** The usage log, observed. */
  wrap(log: UsageLog): UsageLog {
    return {
      record: (row) => {
        this.observe(row);
        log.record(row);
      },
      flush: () => log.flush(),
      written: (row) => this.observe(row),
      pending: log.pending && ((row) => log.pending!(row)),
    };
  }

  private counter<T extends string>(name: string, help: string, labelNames: readonly T[]): client.Counter<T> {
    return new client.Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram<T extends string>(name: string, help: string, labelNames: readonly T[], buckets: number[]): client.Histogram<T> {
    return new client.Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }
}
