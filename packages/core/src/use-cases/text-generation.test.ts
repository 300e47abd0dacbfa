import type { Principal } from '../auth';
import { ModelCatalogue, type Deployment } from '../catalogue';
import { GatewayError, type ErrorReason } from '../errors';
import type { BreakerTransition, RoutingObserver, UpstreamAttempt } from '../ports/routing-observer.port';
import type { TextModelPort } from '../ports/text-model.port';
import type { UsageRow } from '../ports/usage-log.port';
import type { TextRequest, TextResult, TextStreamPart } from '../text';
import { estimateInputTokens } from '../token-estimate';
import { orderDeployments } from './deployment-selection';
import { TextGeneration, type TextGenerationDeps } from './text-generation';

const principal: Principal = { accountId: 'acct', keyId: 'key', group: 'all' };
const request: TextRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
const dep = (provider: string, priority = 0, weight = 1): Deployment => ({
  provider,
  upstreamModel: `${provider}-model`,
  priority,
  weight,
});

type Script = 'ok' | ErrorReason | 'fail-mid-stream' | 'hang-mid-stream' | 'throw-on-abort';

/** A port answering per call from a script; records the requests it saw. */
function scriptedPort(name: string, script: Script[] | (() => Script)) {
  const seen: TextRequest[] = [];
  const closed = { count: 0 };
  const next = () => (typeof script === 'function' ? script() : (script.shift() ?? 'ok'));
  const result = (req: TextRequest): TextResult => ({
    model: req.model,
    content: [{ type: 'text', text: `from ${name}` }],
    finishReason: 'stop',
    usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
    warnings: [{ type: 'other', message: `${name}-warning` }],
  });
  const port: TextModelPort = {
    async generate(req) {
      seen.push(req);
      const s = next();
      if (s !== 'ok') throw new GatewayError(s as ErrorReason, `${name} failed`);
      return result(req);
    },
    async *stream(req, ctx) {
      seen.push(req);
      const s = next();
      try {
        if (s !== 'ok' && s !== 'fail-mid-stream' && s !== 'hang-mid-stream' && s !== 'throw-on-abort')
          throw new GatewayError(s, `${name} failed`);
        yield { type: 'text-delta', delta: `from ${name}` };
        if (s === 'fail-mid-stream') throw new GatewayError('upstream_unavailable', 'dropped', { code: 'upstream_stream_truncated' });
        if (s === 'hang-mid-stream') await new Promise((r) => ctx.signal.addEventListener('abort', r));
        if (s === 'throw-on-abort') {
          await new Promise((r) => ctx.signal.addEventListener('abort', r));
          throw new GatewayError('internal', 'Client went away.', { code: 'client_closed' });
        }
        yield {
          type: 'finish',
          finishReason: 'stop',
          usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
          warnings: [{ type: 'other', message: `${name}-warning` }],
        };
      } finally {
        closed.count++;
      }
    },
  };
  return { port, seen, closed };
}

function setup(
  deployments: Deployment[],
  ports: Record<string, TextModelPort>,
  extra: {
    now?: () => number;
    random?: () => number;
    observer?: RoutingObserver;
    billing?: unknown;
    pricing?: Record<string, number>;
    onSettleFailure?: TextGenerationDeps['onSettleFailure'];
  } = {},
) {
  const rows: UsageRow[] = [];
  const text = new TextGeneration({
    billing: extra.billing as never,
    catalogue: new ModelCatalogue([{ id: 'm', kind: 'text', deployments, pricing: extra.pricing }], [{ name: 'all', models: ['*'] }]),
    providers: { text: (id) => ports[id] },
    usage: { record: (r) => rows.push(r), flush: async () => {} },
    random: extra.random ?? (() => 0),
    now: extra.now,
    breaker: { consecutiveFailures: 2, coolDownMs: 1000 },
    observer: extra.observer,
    onSettleFailure: extra.onSettleFailure,
  });
  return { text, rows };
}

const meta = (signal = new AbortController().signal) => ({ format: 'openai-chat', requestId: 'r1', signal });

async function drain(parts: AsyncIterable<TextStreamPart>): Promise<TextStreamPart[]> {
  const out: TextStreamPart[] = [];
  for await (const p of parts) out.push(p);
  return out;
}

describe('orderDeployments', () => {
  const ds = [dep('c', 1), dep('a', 0, 1), dep('b', 0, 3)];

  it('tries lower priority numbers first', () => {
    expect(orderDeployments(ds, () => 0).map((d) => d.provider)).toEqual(['a', 'b', 'c']);
  });

  it('orders one priority by weighted random draws', () => {
    // 0.5 × total weight 4 = 2: past a (1), inside b.
    expect(orderDeployments(ds, () => 0.5).map((d) => d.provider)).toEqual(['b', 'a', 'c']);
  });

  it('picks first in proportion to weight', () => {
    let seed = 1;
    const lcg = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const firsts = { a: 0, b: 0 } as Record<string, number>;
    for (let i = 0; i < 4000; i++) firsts[orderDeployments(ds, lcg)[0]!.provider]!++;
    expect(firsts.b! / firsts.a!).toBeGreaterThan(2.4);
    expect(firsts.b! / firsts.a!).toBeLessThan(3.7);
  });
});

describe('TextGeneration failover (generate)', () => {
  it.each(['upstream_unavailable', 'rate_limited', 'upstream_timeout'] as const)(
    '%s on the first deployment → answered by the second',
    async (reason) => {
      const one = scriptedPort('one', [reason]);
      const two = scriptedPort('two', ['ok']);
      const { text, rows } = setup([dep('one'), dep('two', 1)], { one: one.port, two: two.port });
      const r = await text.generate(principal, request, meta());
      expect(r.content).toEqual([{ type: 'text', text: 'from two' }]);
      expect(r.model).toBe('m');
      expect(two.seen[0]!.model).toBe('two-model');
      expect(rows).toEqual([expect.objectContaining({ status: 'ok', provider: 'two', attempts: 2, warnings: ['two-warning'] })]);
    },
  );

  it('a non-retryable failure is not retried elsewhere', async () => {
    const one = scriptedPort('one', ['invalid_request']);
    const two = scriptedPort('two', ['ok']);
    const { text, rows } = setup([dep('one'), dep('two', 1)], { one: one.port, two: two.port });
    await expect(text.generate(principal, request, meta())).rejects.toMatchObject({ reason: 'invalid_request' });
    expect(two.seen).toHaveLength(0);
    expect(rows[0]).toMatchObject({ status: 'error', httpStatus: 400, provider: 'one', attempts: 1 });
  });

  it('when every deployment fails, the last error is reported with all attempts', async () => {
    const one = scriptedPort('one', ['upstream_unavailable']);
    const two = scriptedPort('two', ['rate_limited']);
    const { text, rows } = setup([dep('one'), dep('two', 1)], { one: one.port, two: two.port });
    await expect(text.generate(principal, request, meta())).rejects.toMatchObject({ reason: 'rate_limited' });
    expect(rows[0]).toMatchObject({ status: 'error', httpStatus: 429, attempts: 2, provider: 'two' });
  });
});

describe('TextGeneration circuit breaker', () => {
  it('opens after repeated failures, skips the deployment, then recovers through a probe', async () => {
    let t = 0;
    const flaky: Script[] = ['upstream_unavailable', 'upstream_unavailable', 'ok'];
    const one = scriptedPort('one', flaky);
    const two = scriptedPort('two', () => 'ok');
    const { text, rows } = setup([dep('one'), dep('two', 1)], { one: one.port, two: two.port }, { now: () => t });
    await text.generate(principal, request, meta());
    await text.generate(principal, request, meta());
    expect(text.circuitState('one', 'one-model')).toBe('open');

    await text.generate(principal, request, meta());
    expect(one.seen).toHaveLength(2);
    expect(rows[2]).toMatchObject({ provider: 'two', attempts: 1 });

    t += 1000;
    expect(text.circuitState('one', 'one-model')).toBe('half-open');
    const r = await text.generate(principal, request, meta());
    expect(r.content[0]).toEqual({ type: 'text', text: 'from one' });
    expect(text.circuitState('one', 'one-model')).toBe('closed');
  });

  it('every deployment open → upstream_unavailable 503 without calling anyone', async () => {
    const one = scriptedPort('one', () => 'upstream_unavailable');
    const { text, rows } = setup([dep('one')], { one: one.port });
    for (let i = 0; i < 2; i++)
      await expect(text.generate(principal, request, meta())).rejects.toMatchObject({ reason: 'upstream_unavailable' });
    const e = await text.generate(principal, request, meta()).catch((x) => x);
    expect(e).toMatchObject({ reason: 'upstream_unavailable', code: 'all_upstreams_unavailable', status: 503 });
    expect(one.seen).toHaveLength(2);
    expect(rows[2]).toMatchObject({ attempts: 0, provider: null, errorCode: 'all_upstreams_unavailable' });
  });

  it('a 400 from the upstream does not count against it', async () => {
    const one = scriptedPort('one', () => 'invalid_request');
    const { text } = setup([dep('one')], { one: one.port });
    for (let i = 0; i < 4; i++)
      await expect(text.generate(principal, request, meta())).rejects.toMatchObject({ reason: 'invalid_request' });
    expect(text.circuitState('one', 'one-model')).toBe('closed');
  });

  it('an abandoned priced stream is charged for its input and the text delivered', async () => {
    const one = scriptedPort('one', ['throw-on-abort']);
    const settled: number[] = [];
    const billing = { precheck: async () => {}, settle: async (_p: unknown, amount: number) => void settled.push(amount) };
    const pricing = { inputPerMillionTokens: 1_000_000, outputPerMillionTokens: 1_000_000 };
    const { text, rows } = setup([dep('one')], { one: one.port }, { billing, pricing });
    const it = text.stream(principal, request, meta());
    await it.next();
    await it.return(undefined);
    expect(settled).toHaveLength(1);
    expect(settled[0]).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({ status: 'cancelled', httpStatus: 499 });
    expect(rows[0]?.credits).toBe(settled[0]);
  });

  it('an abandoned stream whose charge cannot be settled is reported, and its row still written', async () => {
    const one = scriptedPort('one', ['hang-mid-stream']);
    const billing = { precheck: async () => {}, settle: async () => Promise.reject(new Error('store down')) };
    const failures: Array<{ requestId: string; credits: number; error: unknown }> = [];
    const pricing = { inputPerMillionTokens: 1_000_000, outputPerMillionTokens: 1_000_000 };
    const { text, rows } = setup([dep('one')], { one: one.port }, { billing, pricing, onSettleFailure: (f) => void failures.push(f) });
    const it = text.stream(principal, request, meta());
    await it.next();
    await it.return(undefined);
    expect(failures).toEqual([
      { requestId: meta().requestId, accountId: principal.accountId, credits: expect.any(Number), error: expect.any(Error) },
    ]);
    expect(failures[0]!.credits).toBeGreaterThan(0);
    // the charge is not lost: it goes with the row, which charges it once when written
    expect(rows[0]).toMatchObject({ status: 'cancelled', httpStatus: 499, errorCode: 'client_closed', charge: failures[0]!.credits });
    expect(rows[0]!.credits).toBe(failures[0]!.credits);
  });

  it('a priced stream is recorded as pending before its first part, with the same row id as its final row', async () => {
    const one = scriptedPort('one', ['ok']);
    const pending: UsageRow[] = [];
    const settled: unknown[] = [];
    const billing = { precheck: async () => {}, settle: async (...args: unknown[]) => void settled.push(args) };
    const pricing = { inputPerMillionTokens: 1_000_000, outputPerMillionTokens: 1_000_000 };
    const { text, rows } = setup([dep('one')], { one: one.port }, { billing, pricing });
    (text as unknown as { deps: { usage: { pending(r: UsageRow): void } } }).deps.usage.pending = (r) => void pending.push(r);
    const it = text.stream(principal, request, meta());
    await it.next();
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ status: 'pending', requestId: 'r1', charge: expect.any(Number) });
    expect(pending[0]!.charge).toBeGreaterThan(0);
    expect(rows).toHaveLength(0);
    while (!(await it.next()).done);
    expect(rows[0]).toMatchObject({ status: 'ok', rowId: pending[0]!.rowId });
    expect(rows[0]!.charge).toBeUndefined();
    expect(settled[0]).toEqual([principal, rows[0]!.credits, 'text', { requestId: 'r1', usageRowId: pending[0]!.rowId }]);
  });

  it('a stream the caller left (its upstream then failed on the abort) is charged for what was delivered', async () => {
    const ac = new AbortController();
    const one = scriptedPort('one', ['throw-on-abort']);
    const settled: number[] = [];
    const billing = { precheck: async () => {}, settle: async (_p: unknown, credits: number) => void settled.push(credits) };
    const pricing = { inputPerMillionTokens: 1_000_000, outputPerMillionTokens: 1_000_000 };
    const { text, rows } = setup([dep('one')], { one: one.port }, { billing, pricing });
    const it = text.stream(principal, request, meta(ac.signal));
    await it.next();
    const next = it.next();
    ac.abort();
    await expect(next).rejects.toMatchObject({ code: 'client_closed' });
    expect(rows[0]).toMatchObject({ status: 'cancelled', httpStatus: 499, errorCode: 'client_closed' });
    expect(rows[0]!.credits).toBeGreaterThan(0);
    expect(settled).toEqual([rows[0]!.credits]);
  });
});

describe('TextGeneration failover (stream)', () => {
  it('a failure before the first part moves on to the next deployment', async () => {
    const one = scriptedPort('one', ['upstream_timeout']);
    const two = scriptedPort('two', ['ok']);
    const { text, rows } = setup([dep('one'), dep('two', 1)], { one: one.port, two: two.port });
    const parts = await drain(text.stream(principal, request, meta()));
    expect(parts[0]).toEqual({ type: 'text-delta', delta: 'from two' });
    expect(rows[0]).toMatchObject({ status: 'ok', provider: 'two', attempts: 2, warnings: ['two-warning'], inputTokens: 3 });
  });

  it('a failure after the first part surfaces as an error, with no retry', async () => {
    const one = scriptedPort('one', ['fail-mid-stream']);
    const two = scriptedPort('two', ['ok']);
    const { text, rows } = setup([dep('one'), dep('two', 1)], { one: one.port, two: two.port });
    const seen: TextStreamPart[] = [];
    await expect(
      (async () => {
        for await (const p of text.stream(principal, request, meta())) seen.push(p);
      })(),
    ).rejects.toMatchObject({ code: 'upstream_stream_truncated' });
    expect(seen).toEqual([{ type: 'text-delta', delta: 'from one' }]);
    expect(two.seen).toHaveLength(0);
    expect(rows[0]).toMatchObject({ status: 'error', provider: 'one', attempts: 1 });
  });

  it('an abandoned stream closes the upstream and logs a cancelled row', async () => {
    const one = scriptedPort('one', ['hang-mid-stream']);
    const { text, rows } = setup([dep('one')], { one: one.port });
    const ac = new AbortController();
    const it = text.stream(principal, request, meta(ac.signal));
    await it.next();
    ac.abort();
    await it.return(undefined);
    expect(one.closed.count).toBe(1);
    expect(rows[0]).toMatchObject({ status: 'cancelled', attempts: 1, provider: 'one' });
    expect(text.circuitState('one', 'one-model')).toBe('closed');
  });
});

describe('countTokens', () => {
  const counting = (name: string, script: Array<number | ErrorReason>) => {
    const seen: string[] = [];
    const { port } = scriptedPort(name, []);
    port.countTokens = async (req) => {
      seen.push(req.model);
      const s = script.shift() ?? 0;
      if (typeof s !== 'number') throw new GatewayError(s, `${name} cannot count`);
      return s;
    };
    return { port, seen };
  };

  it('asks the first deployment that can count, with its upstream model; writes no usage row', async () => {
    const a = scriptedPort('a', []);
    const b = counting('b', [42]);
    const { text, rows } = setup([dep('a', 0), dep('b', 1)], { a: a.port, b: b.port });
    expect(await text.countTokens(principal, request, meta())).toEqual({ inputTokens: 42, estimated: false });
    expect(b.seen).toEqual(['b-model']);
    expect(a.seen).toEqual([]);
    expect(rows).toEqual([]);
  });

  it('fails over on a retryable error and estimates when no upstream can count', async () => {
    const a = counting('a', ['upstream_unavailable']);
    const b = counting('b', [7]);
    expect(await setup([dep('a', 0), dep('b', 1)], { a: a.port, b: b.port }).text.countTokens(principal, request, meta())).toEqual({
      inputTokens: 7,
      estimated: false,
    });

    const down = counting('c', ['upstream_timeout']);
    const estimated = await setup([dep('c')], { c: down.port }).text.countTokens(principal, request, meta());
    expect(estimated).toEqual({ inputTokens: estimateInputTokens(request), estimated: true });
  });

  it("shares generation's breakers: failed counts open a deployment's breaker, which generation then passes over", async () => {
    const a = counting('a', ['upstream_unavailable', 'upstream_unavailable']);
    const b = scriptedPort('b', ['ok']);
    const { text } = setup([dep('a', 0), dep('b', 1)], { a: a.port, b: b.port });
    await text.countTokens(principal, request, meta());
    await text.countTokens(principal, request, meta());
    expect(text.circuitState('a', 'a-model')).toBe('open');
    expect((await text.generate(principal, request, meta())).content).toEqual([{ type: 'text', text: 'from b' }]);
    expect(a.seen).toEqual(['a-model', 'a-model']);
  });

  it("an upstream's refusal is the caller's error; an unknown model is refused before any upstream", async () => {
    const a = counting('a', ['invalid_request']);
    const { text } = setup([dep('a')], { a: a.port });
    await expect(text.countTokens(principal, request, meta())).rejects.toMatchObject({ reason: 'invalid_request' });
    await expect(text.countTokens(principal, { ...request, model: 'nope' }, meta())).rejects.toMatchObject({
      reason: 'model_not_found',
    });
    expect(a.seen).toEqual(['a-model']);
  });
});

describe('TextGeneration resolves the model once per request', () => {
  it('uses the model the adapter resolved instead of looking it up again', async () => {
    const one = scriptedPort('one', ['ok', 'ok']);
    const catalogue = new ModelCatalogue([{ id: 'm', kind: 'text', deployments: [dep('one')] }], [{ name: 'all', models: ['*'] }]);
    const lookups: string[] = [];
    const get = catalogue.get.bind(catalogue);
    catalogue.get = (id: string) => (lookups.push(id), get(id));
    const text = new TextGeneration({
      catalogue,
      providers: { text: () => one.port },
      usage: { record: () => undefined, flush: async () => {} },
    });
    const model = text.resolve(principal, 'm');
    await text.generate(principal, request, { ...meta(), model });
    await drain(text.stream(principal, request, { ...meta(), model }));
    expect(lookups).toEqual(['m']);
  });

  it('many 400s from the upstream never open the circuit', async () => {
    const one = scriptedPort('one', () => 'invalid_request');
    const { text } = setup([dep('one')], { one: one.port });
    for (let i = 0; i < 30; i++)
      await expect(text.generate(principal, request, meta())).rejects.toMatchObject({ reason: 'invalid_request' });
    expect(text.circuitState('one', 'one-model')).toBe('closed');
    expect(one.seen).toHaveLength(30);
  });
});

describe('TextGeneration routing observer', () => {
  it('hears every attempt, failed ones before a failover included, and each breaker transition', async () => {
    let t = 0;
    const attempts: UpstreamAttempt[] = [];
    const transitions: BreakerTransition[] = [];
    const observer: RoutingObserver = { attempt: (a) => attempts.push(a), breakerChanged: (x) => transitions.push(x) };
    const one = scriptedPort('one', ['upstream_unavailable', 'upstream_unavailable', 'ok']);
    const two = scriptedPort('two', () => 'ok');
    const { text } = setup([dep('one'), dep('two', 1)], { one: one.port, two: two.port }, { now: () => t, observer });
    await text.generate(principal, request, meta());
    await drain(text.stream(principal, request, meta()));
    expect(attempts.map(({ provider, upstreamModel, outcome }) => ({ provider, upstreamModel, outcome }))).toEqual([
      { provider: 'one', upstreamModel: 'one-model', outcome: 'upstream_unavailable' },
      { provider: 'two', upstreamModel: 'two-model', outcome: 'ok' },
      { provider: 'one', upstreamModel: 'one-model', outcome: 'upstream_unavailable' },
      { provider: 'two', upstreamModel: 'two-model', outcome: 'ok' },
    ]);
    expect(transitions).toEqual([{ provider: 'one', upstreamModel: 'one-model', from: 'closed', to: 'open' }]);
    t += 1000;
    await text.generate(principal, request, meta());
    expect(transitions[1]).toEqual({ provider: 'one', upstreamModel: 'one-model', from: 'half-open', to: 'closed' });
  });

  it("tells each attempt's call, its duration on the policy clock and what the answer said (counts, never content)", async () => {
    let t = 0;
    const attempts: UpstreamAttempt[] = [];
    const observer: RoutingObserver = { attempt: (a) => attempts.push(a), breakerChanged: () => undefined };
    const slow = scriptedPort('slow', () => 'ok');
    const generate = slow.port.generate.bind(slow.port);
    slow.port.generate = async (req, ctx) => {
      t += 250; // the upstream takes a quarter second on the injected clock
      return generate(req, ctx);
    };
    const failing = scriptedPort('failing', () => 'upstream_unavailable');
    const { text } = setup([dep('failing'), dep('slow', 1)], { failing: failing.port, slow: slow.port }, { now: () => t, observer });
    await text.generate(principal, request, meta());
    await drain(text.stream(principal, request, meta()));
    const call = { requestId: 'r1', operation: 'chat', model: 'm' };
    expect(attempts[0]).toMatchObject({ provider: 'failing', call, durationMs: 0 });
    expect(attempts[0]!.answer).toBeUndefined();
    expect(attempts[1]).toMatchObject({
      provider: 'slow',
      call,
      durationMs: 250,
      answer: { inputTokens: 3, outputTokens: 2, finishReasons: ['stop'], responseModel: 'slow-model' },
    });
    expect(attempts[3]).toMatchObject({ provider: 'slow', call, answer: { inputTokens: 3, outputTokens: 2, finishReasons: ['stop'] } });
    expect(JSON.stringify(attempts)).not.toContain('from slow');
  });
});
