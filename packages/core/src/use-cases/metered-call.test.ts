import { ModelCatalogue, type ModelSpec } from '../catalogue';
import { GatewayError } from '../errors';
import type { RerankRequest, RerankResult } from '../rerank';
import type { RerankModelPort } from '../ports/rerank-model.port';
import type { UsageRow } from '../ports/usage-log.port';
import { missingPrice } from '../pricing';
import type { Billing } from './billing';
import { MeteredCalls, type MeteredKindSpec } from './metered-call';

const dep = (provider: string, priority = 0) => ({ provider, upstreamModel: `${provider}-up`, priority, weight: 1 });
const models: ModelSpec[] = [
  { id: 'rr', kind: 'rerank', deployments: [dep('a'), dep('b', 1)], pricing: { perThousandSearches: 2 } },
  { id: 'chat', kind: 'text', deployments: [dep('a')] },
];
const principal = { accountId: 'acc', keyId: 'k', group: 'g' };
const meta = () => ({ format: 'test', requestId: 'r1', signal: new AbortController().signal });
const request: RerankRequest = { model: 'rr', query: 'q', documents: ['x', 'y'] };

/** A toy kind over the rerank port: what each metered kind declares. */
const spec: MeteredKindSpec<RerankModelPort, RerankRequest, RerankResult> = {
  kind: 'rerank',
  operation: 'rerank',
  call: (port, req, ctx) => port.rerank(req, ctx),
  measure: (answer) => (answer.usage?.searchUnits ? { usage: { searchUnits: answer.usage.searchUnits } } : undefined),
  estimate: () => ({ usage: { searchUnits: 1 }, estimated: true }),
};

function setup(ports: Record<string, RerankModelPort>) {
  const rows: UsageRow[] = [];
  const charged: number[] = [];
  const billing = { precheck: async () => {}, settle: async (_p: unknown, n: number) => void charged.push(n) } as unknown as Billing;
  const calls = new MeteredCalls(
    {
      catalogue: new ModelCatalogue(models, [{ name: 'g', models: ['*'] }]),
      usage: { record: (r) => rows.push(r), flush: async () => {} },
      billing,
    },
    (id) => ports[id],
    spec,
  );
  return { calls, rows, charged };
}

const answering = (result: Partial<RerankResult>, seen: string[] = []): RerankModelPort => ({
  rerank: async (req) => {
    seen.push(req.model);
    return { results: [{ index: 1, relevanceScore: 0.9 }], warnings: [], ...result };
  },
});

describe('MeteredCalls: the routed call of a metered kind', () => {
  it('resolves models of its own kind only, as on chat', () => {
    const { calls } = setup({});
    expect(calls.resolve(principal, 'rr').id).toBe('rr');
    expect(() => calls.resolve(principal, 'chat')).toThrow(expect.objectContaining({ code: 'model_kind_mismatch' }));
    expect(() => calls.resolve(principal, 'nope')).toThrow(expect.objectContaining({ code: 'model_not_found' }));
  });

  it("calls the deployment's upstream model, writes one row with the upstream's units, and charges its price", async () => {
    const seen: string[] = [];
    const { calls, rows, charged } = setup({ a: answering({ usage: { searchUnits: 3 } }, seen) });
    const model = calls.resolve(principal, 'rr');
    const out = await calls.answer(principal, model, request, meta());
    expect(out.results[0]!.index).toBe(1);
    expect(seen).toEqual(['a-up']);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model: 'rr', status: 'ok', searchUnits: 3, provider: 'a', credits: 0.006 });
    expect(rows[0]!.estimated).toBeUndefined();
    expect(charged).toEqual([0.006]);
  });

  it('counts the units itself, marked estimated, when the upstream reports none', async () => {
    const { calls, rows } = setup({ a: answering({}) });
    await calls.answer(principal, calls.resolve(principal, 'rr'), request, meta());
    expect(rows[0]).toMatchObject({ searchUnits: 1, estimated: true });
  });

  it('fails over on a retryable error and writes one error row when every deployment fails', async () => {
    const down: RerankModelPort = { rerank: async () => Promise.reject(new GatewayError('upstream_unavailable', 'down')) };
    const ok = setup({ a: down, b: answering({ usage: { searchUnits: 1 } }) });
    await ok.calls.answer(principal, ok.calls.resolve(principal, 'rr'), request, meta());
    expect(ok.rows[0]).toMatchObject({ status: 'ok', provider: 'b', attempts: 2 });

    const bad = setup({ a: down, b: down });
    await expect(bad.calls.answer(principal, bad.calls.resolve(principal, 'rr'), request, meta())).rejects.toThrow('down');
    expect(bad.rows).toHaveLength(1);
    expect(bad.rows[0]).toMatchObject({ status: 'error' });
    expect(bad.charged).toEqual([]);
  });
});

describe('pricing of the metered kinds', () => {
  it('fails closed on a price table without the kind’s field', () => {
    expect(missingPrice({ id: 'e', kind: 'embedding', deployments: [], pricing: { perImage: 1 } })).toMatch(/inputPerMillionTokens/);
    expect(missingPrice({ id: 's', kind: 'speech', deployments: [], pricing: { perMillionCharacters: 1 } })).toBeNull();
    expect(missingPrice({ id: 't', kind: 'transcription', deployments: [], pricing: {} })).toMatch(/perAudioMinute/);
  });
});
