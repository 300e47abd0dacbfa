import { ModelCatalogue, type Deployment, type ModelSpec } from '../catalogue';
import { GatewayError } from '../errors';
import type { ImageModelPort } from '../ports/image-model.port';
import type { UsageRow } from '../ports/usage-log.port';
import { DeploymentSelector, isUpstreamFault } from './deployment-selection';
import { ImageGeneration } from './image-generation';

const dep = (provider: string, priority = 0): Deployment => ({ provider, upstreamModel: `${provider}-model`, priority, weight: 1 });
const signal = new AbortController().signal;
/** What an outbound adapter throws for an upstream HTTP status (provider-kit's table). */
const upstream = (status: number): GatewayError => {
  if (status === 429) return new GatewayError('rate_limited', 'slow down', { upstreamStatus: status });
  if (status >= 500) return new GatewayError('upstream_unavailable', 'down', { upstreamStatus: status });
  return new GatewayError('invalid_request', 'your prompt is wrong', { upstreamStatus: status });
};

describe('isUpstreamFault', () => {
  it('counts 5xx, 429, timeouts and connection errors; never a 4xx caused by the request', () => {
    expect([500, 502, 503, 429, 408].map((s) => isUpstreamFault(new GatewayError('upstream_timeout', 'x', { upstreamStatus: s })))).toEqual(
      [true, true, true, true, true],
    );
    expect(isUpstreamFault(new GatewayError('upstream_timeout', 'connect timeout'))).toBe(true);
    expect(isUpstreamFault(new GatewayError('upstream_unavailable', 'ECONNREFUSED'))).toBe(true);
    for (const s of [400, 401, 403, 404, 413, 422]) expect(isUpstreamFault(upstream(s))).toBe(false);
  });
});

describe('DeploymentSelector', () => {
  it('many 400s from the upstream never open its circuit; a run of 5xx does', () => {
    const sel = new DeploymentSelector({ breaker: { consecutiveFailures: 3, minimumCalls: 4 } });
    const call = (status: number) => {
      const [a] = sel.attempts([dep('one')], () => ({}));
      expect(sel.failed(a!, upstream(status), signal).failover).toBe(status >= 500 || status === 429);
    };
    for (let i = 0; i < 50; i++) call(400);
    expect(sel.circuitState('one', 'one-model')).toBe('closed');
    for (let i = 0; i < 3; i++) call(503);
    expect(sel.circuitState('one', 'one-model')).toBe('open');
    expect([...sel.attempts([dep('one')], () => ({}))]).toHaveLength(0);
  });

  it('choose() binds the first deployment in policy order whose circuit is not open', () => {
    const sel = new DeploymentSelector({ breaker: { consecutiveFailures: 1 } });
    const ports: Record<string, object> = { one: {}, two: {} };
    expect(sel.choose([dep('two', 1), dep('one')], (p) => ports[p])?.deployment.provider).toBe('one');
    const [a] = sel.attempts([dep('one')], (p) => ports[p]);
    sel.failed(a!, upstream(500), signal);
    expect(sel.choose([dep('two', 1), dep('one')], (p) => ports[p])?.deployment.provider).toBe('two');
    expect(sel.choose([dep('three')], (p) => ports[p])).toBeNull();
  });
});

describe('ImageGeneration under the one policy', () => {
  const model: ModelSpec = { id: 'img', kind: 'image', deployments: [dep('one'), dep('two', 1)] };
  const catalogue = new ModelCatalogue([model], [{ name: 'g', models: ['*'] }]);
  const principal = { accountId: 'a', keyId: 'k', group: 'g' };
  const meta = { format: 'test', requestId: 'r1', signal };
  const answering = (name: string, seen: string[]): ImageModelPort => ({
    generate: async (req) => {
      seen.push(`${name}:${req.model}`);
      return {
        images: [{ mediaType: 'image/png', data: Uint8Array.from([1]) }],
        warnings: [],
        usage: { inputTextTokens: 1, inputImageTokens: 0, outputTokens: 1 },
      };
    },
  });
  const failing = (status: number, seen: string[]): ImageModelPort => ({
    generate: async () => {
      seen.push(`one:${status}`);
      throw upstream(status);
    },
  });

  it('fails over to the next deployment on a retryable upstream error, streaming or not', async () => {
    const seen: string[] = [];
    const rows: UsageRow[] = [];
    const ports: Record<string, ImageModelPort> = { one: failing(503, seen), two: answering('two', seen) };
    const uc = new ImageGeneration({
      catalogue,
      providers: { image: (p) => ports[p] },
      usage: { record: (r) => rows.push(r), flush: async () => {} },
    });
    const call = uc.prepare(principal, { operation: 'generate', model: 'img', prompt: 'a fox' });
    expect((await uc.generate(principal, call, meta)).images).toHaveLength(1);
    const parts: string[] = [];
    for await (const part of uc.stream(principal, call, meta)) parts.push(part.type);
    expect(parts).toEqual(['image', 'finish']);
    expect(seen).toEqual(['one:503', 'two:two-model', 'one:503', 'two:two-model']);
    expect(rows.map((r) => [r.status, r.provider, r.attempts])).toEqual([
      ['ok', 'two', 2],
      ['ok', 'two', 2],
    ]);
  });

  it("a request's 400 is not retried elsewhere and never opens the circuit", async () => {
    const seen: string[] = [];
    const ports: Record<string, ImageModelPort> = { one: failing(400, seen), two: answering('two', seen) };
    const uc = new ImageGeneration({
      catalogue,
      providers: { image: (p) => ports[p] },
      usage: { record: () => undefined, flush: async () => {} },
      breaker: { consecutiveFailures: 2, minimumCalls: 2 },
    });
    const call = uc.prepare(principal, { operation: 'generate', model: 'img', prompt: 'a fox' });
    for (let i = 0; i < 20; i++) await expect(uc.generate(principal, call, meta)).rejects.toMatchObject({ reason: 'invalid_request' });
    expect(seen.every((s) => s === 'one:400')).toBe(true);
    expect(uc.circuitState('one', 'one-model')).toBe('closed');
  });
});
