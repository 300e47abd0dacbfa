import client from 'prom-client';
import { aggregateSnapshots, retire, type MetricSnapshot } from './cluster-metrics';

/** A worker's registry as it would be collected: a request counter, a latency histogram, its memory, open streams, tasks. */
async function workerSnapshot(requests: number, memory: number, streams: number): Promise<MetricSnapshot> {
  const registry = new client.Registry();
  new client.Counter({ name: 'gateway_requests_total', help: 'h', labelNames: ['status'], registers: [registry] }).inc(
    { status: '200' },
    requests,
  );
  const h = new client.Histogram({ name: 'gateway_request_duration_seconds', help: 'h', buckets: [1], registers: [registry] });
  for (let i = 0; i < requests; i++) h.observe(0.5);
  new client.Gauge({ name: 'process_resident_memory_bytes', help: 'h', registers: [registry] }).set(memory);
  new client.Gauge({ name: 'gateway_active_streams', help: 'h', registers: [registry] }).set(streams);
  new client.Gauge({ name: 'gateway_tasks', help: 'h', labelNames: ['status'], registers: [registry] }).set({ status: 'queued' }, 7);
  return registry.getMetricsAsJSON();
}

describe('the cluster primary’s aggregate of its workers’ registries', () => {
  it('sums counters and histograms, labels per-worker gauges, sums open streams and shows a shared figure once', async () => {
    const live = new Map([
      ['1', await workerSnapshot(3, 100, 1)],
      ['2', await workerSnapshot(4, 200, 2)],
    ]);
    const text = await aggregateSnapshots(live, []).metrics();
    expect(text).toContain('gateway_requests_total{status="200"} 7');
    expect(text).toContain('gateway_request_duration_seconds_count 7');
    expect(text).toContain('gateway_request_duration_seconds_bucket{le="1"} 7');
    expect(text).toContain('process_resident_memory_bytes{worker="1"} 100');
    expect(text).toContain('process_resident_memory_bytes{worker="2"} 200');
    expect(text).toMatch(/^gateway_active_streams 3$/m);
    expect(text).toMatch(/^gateway_tasks\{status="queued"\} 7$/m);
  });

  it('keeps what an exited worker counted, so the totals never go backwards', async () => {
    const before = await aggregateSnapshots(
      new Map([
        ['1', await workerSnapshot(3, 100, 0)],
        ['2', await workerSnapshot(4, 200, 0)],
      ]),
      [],
    ).metrics();
    expect(before).toContain('gateway_requests_total{status="200"} 7');
    // worker 2 dies; worker 3 replaces it and answers one request; worker 1 one more
    let retired = retire([], await workerSnapshot(4, 200, 0));
    const after = await aggregateSnapshots(
      new Map([
        ['1', await workerSnapshot(4, 100, 0)],
        ['3', await workerSnapshot(1, 50, 0)],
      ]),
      retired,
    ).metrics();
    expect(after).toContain('gateway_requests_total{status="200"} 9');
    expect(after).toContain('gateway_request_duration_seconds_count 9');
    expect(after).not.toContain('worker="2"');
    // a second death adds to what is kept, series by series
    retired = retire(retired, await workerSnapshot(1, 50, 0));
    expect(await aggregateSnapshots(new Map([['1', await workerSnapshot(4, 100, 0)]]), retired).metrics()).toContain(
      'gateway_requests_total{status="200"} 9',
    );
  });
});
