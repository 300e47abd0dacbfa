import { circuitStates, parseMetrics, taskCounts } from '../src/metrics-text';
import { takeSseData } from '../src/sse';
import { bucketSeconds, bucketUsage } from '../src/usage-buckets';
import type { UsageRow } from '../src/usage-row';

/** The dashboard's pure rules: time buckets of the usage log, the /metrics text, the chat stream's events. */
const row = (created_at: number, over: Partial<UsageRow> = {}): UsageRow => ({
  id: String(created_at),
  created_at,
  key_id: 'key_1',
  request_id: `req_${created_at}`,
  model: 'm',
  provider: 'p',
  format: 'openai-chat',
  status: 'ok',
  http_status: 200,
  error_code: null,
  input_tokens: 1,
  output_tokens: 1,
  latency_ms: 100,
  credits: 1,
  task_id: null,
  ...over,
});

describe('usage buckets', () => {
  it('counts requests, errors, mean latency and credits per bucket, empty buckets included, oldest first', () => {
    const t = 1_800_000_000 - (1_800_000_000 % 60);
    const buckets = bucketUsage(
      [
        row(t + 5, { latency_ms: 100, credits: 2 }),
        row(t + 50, { status: 'error', http_status: 502, latency_ms: 300, credits: 0 }),
        row(t + 185, { latency_ms: null, credits: 0.5 }),
      ],
      60,
    );
    expect(buckets.map((b) => b.at)).toEqual([t, t + 60, t + 120, t + 180]);
    expect(buckets[0]).toMatchObject({ requests: 2, errors: 1, latencyMs: 200, credits: 2 });
    expect(buckets[1]).toMatchObject({ requests: 0, errors: 0, latencyMs: null, credits: 0 });
    expect(buckets[3]).toMatchObject({ requests: 1, latencyMs: null, credits: 0.5 });
  });

  it('picks a width that gives a readable number of buckets', () => {
    expect(bucketSeconds([row(0)])).toBe(60);
    expect(bucketSeconds([row(0), row(600)])).toBe(60);
    expect(bucketSeconds([row(0), row(6 * 3600)])).toBe(900);
    expect(bucketSeconds([row(0), row(30 * 86400)])).toBe(86400);
    expect(bucketUsage([])).toEqual([]);
  });
});

describe('/metrics text', () => {
  const text = [
    '# HELP gateway_circuit_state Circuit breaker per deployment',
    '# TYPE gateway_circuit_state gauge',
    'gateway_circuit_state{provider="sim",upstream_model="sim-chat"} 0',
    'gateway_circuit_state{provider="up",upstream_model="a \\"quoted\\" name"} 2',
    'gateway_tasks{status="queued"} 3',
    'gateway_tasks{status="running"} 1',
    'process_cpu_seconds_total 12.5',
  ].join('\n');

  it('reads breaker states and task counts', () => {
    const samples = parseMetrics(text);
    expect(circuitStates(samples)).toEqual([
      { provider: 'sim', upstreamModel: 'sim-chat', state: 'closed' },
      { provider: 'up', upstreamModel: 'a "quoted" name', state: 'open' },
    ]);
    expect(taskCounts(samples)).toEqual({ queued: 3, running: 1 });
    expect(samples.find((s) => s.name === 'process_cpu_seconds_total')).toMatchObject({ labels: {}, value: 12.5 });
  });

  it('with WORKERS > 1, shows each deployment once, in its worst state and how many workers are in it', () => {
    const samples = parseMetrics(
      [
        'gateway_circuit_state{provider="sim",upstream_model="a",worker="1"} 0',
        'gateway_circuit_state{provider="sim",upstream_model="a",worker="2"} 2',
        'gateway_circuit_state{provider="sim",upstream_model="b",worker="1"} 0',
        'gateway_circuit_state{provider="sim",upstream_model="b",worker="2"} 0',
      ].join('\n'),
    );
    expect(circuitStates(samples)).toEqual([
      { provider: 'sim', upstreamModel: 'a', state: 'open', detail: '1 of 2 workers' },
      { provider: 'sim', upstreamModel: 'b', state: 'closed' },
    ]);
  });
});

describe('server-sent events', () => {
  it('returns the data of complete events and keeps a partial one for the next chunk', () => {
    const first = takeSseData('data: {"a":1}\n\ndata: {"b"');
    expect(first).toEqual({ data: ['{"a":1}'], rest: 'data: {"b"' });
    const second = takeSseData(first.rest + ':2}\r\n\r\n: comment\n\ndata: [DONE]\n\n');
    expect(second).toEqual({ data: ['{"b":2}', '[DONE]'], rest: '' });
  });

  it('joins multi-line data and ignores event names', () => {
    expect(takeSseData('event: x\ndata: one\ndata: two\n\n').data).toEqual(['one\ntwo']);
  });
});
