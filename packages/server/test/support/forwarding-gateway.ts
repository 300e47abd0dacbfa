import request from 'supertest';
import { startProviderGateway, UPSTREAMS, type ProviderGateway } from './provider-gateway';

/**
 * The gateway a same-dialect stream forwarding contract test drives (core stream-forwarding.ts), one upstream behind
 * it. PLAIN_KEY's streams are forwarded. Two things take the offer back, for the full path's reference: GUARDED_KEY's
 * output guardrail, which never matches, and the `cached` model with a response cache, asked not to read or keep
 * the answer (`cache-control: no-cache, no-store`).
 */
export const PLAIN_KEY = 'sk-forward-plain-key-00002';
export const GUARDED_KEY = 'sk-forward-guarded-key-0001';

export interface ForwardingGateway extends ProviderGateway {
  /** the model served by the upstream as is */
  model: string;
  /** the same upstream model with a response cache */
  cached: string;
}

export async function startForwardingGateway(upstreamName: string): Promise<ForwardingGateway> {
  const upstream = UPSTREAMS.find((u) => u.name === upstreamName)!;
  const cached = `${upstream.model}-cached`;
  const pg = await startProviderGateway([upstream], (file) => ({
    ...file,
    models: [
      ...file.models,
      { id: cached, kind: 'text', provider: upstream.name, upstreamModel: upstream.upstreamModel, cache: { ttlSeconds: 600 } },
    ],
    guardrails: [{ id: 'never-matches', type: 'regex', on: 'output', patterns: ['zq9xw7-never'] }],
    groups: [...file.groups, { name: 'forwarding', models: ['*'] }],
    keys: [
      ...(file.keys ?? []),
      { key: GUARDED_KEY, account: 'forwarding', group: 'forwarding', guardrails: ['never-matches'] },
      { key: PLAIN_KEY, account: 'forwarding', group: 'forwarding' },
    ],
  }));
  return { ...pg, model: upstream.model, cached };
}

/** The usage row of one request as the key's holder reads it, without what differs per request (ids, clock, latency). */
export async function comparableUsageRow(pg: ProviderGateway, key: string, requestId: string): Promise<Record<string, unknown>> {
  await pg.gw.usage.flush();
  const res = await request(pg.gw.url).get(`/v1/usage?request_id=${requestId}`).set('Authorization', `Bearer ${key}`);
  expect(res.body.data).toHaveLength(1);
  const {
    id: _i,
    request_id: _r,
    created_at: _c,
    latency_ms: _l,
    model: _m,
    ttft_ms: _t,
    upstream_request_id: _u,
    ...row
  } = res.body.data[0];
  return row;
}
