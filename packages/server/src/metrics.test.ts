import type { Knex } from 'knex';
import { Writable } from 'node:stream';
import { createLogger } from './logger';
import { GatewayMetrics } from './metrics';

describe('GatewayMetrics routing observer', () => {
  it('counts each attempt by provider, model and outcome, and counts and warns on breaker transitions', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(JSON.parse(String(chunk)));
        cb();
      },
    });
    // only the counters are read here: the store-backed gauges are never collected
    const metrics = new GatewayMetrics({} as Knex);
    const observer = metrics.routingObserver(createLogger('warn', { stream }));
    observer.attempt({ provider: 'primary', upstreamModel: 'gpt-x', outcome: 'upstream_unavailable', upstreamStatus: 503, durationMs: 5 });
    observer.attempt({ provider: 'secondary', upstreamModel: 'claude-y', outcome: 'ok', durationMs: 7 });
    observer.breakerChanged({ provider: 'primary', upstreamModel: 'gpt-x', from: 'closed', to: 'open' });
    const attempts = await metrics.registry.getSingleMetricAsString('gateway_upstream_attempts_total');
    expect(attempts).toContain('gateway_upstream_attempts_total{provider="primary",model="gpt-x",outcome="upstream_unavailable"} 1');
    expect(attempts).toContain('gateway_upstream_attempts_total{provider="secondary",model="claude-y",outcome="ok"} 1');
    expect(await metrics.registry.getSingleMetricAsString('gateway_circuit_transitions_total')).toContain(
      'gateway_circuit_transitions_total{provider="primary",upstream_model="gpt-x",to="open"} 1',
    );
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([
      expect.objectContaining({ level: 'warn', message: 'upstream attempt failed', provider: 'primary', upstreamStatus: 503 }),
      expect.objectContaining({ level: 'warn', message: 'circuit breaker changed', from: 'closed', to: 'open' }),
    ]);
  });
});
