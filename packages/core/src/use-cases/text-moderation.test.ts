import type { Principal } from '../auth';
import { ModelCatalogue } from '../catalogue';
import { GatewayError } from '../errors';
import type { ModerationInput, ModerationVerdict } from '../moderation';
import type { TextModelPort } from '../ports/text-model.port';
import type { TextRequest, TextResult, TextStreamPart } from '../text';
import { TextGeneration } from './text-generation';
import type { TextModerator } from './text-moderation';

const principal: Principal = { accountId: 'acct', keyId: 'key', group: 'all' };
const meta = { format: 'openai-chat', requestId: 'r1', signal: new AbortController().signal };

/** Flags any text containing "bad"; records what it was asked. */
function fakeModerator(fail?: () => boolean) {
  const asked: ModerationInput[][] = [];
  const moderator: TextModerator = {
    resolve: (_p, id) => {
      if (id !== 'mod') throw new GatewayError('model_not_found', `The model "${id}" does not exist.`, { param: 'model' });
      return 'mod-id';
    },
    async moderate(_p, _id, items) {
      if (fail?.()) throw new GatewayError('upstream_unavailable', 'moderation down');
      asked.push(...items.map((i) => [...i]));
      return items.map((item): ModerationVerdict => {
        const flagged = item.some((p) => p.type === 'text' && p.text.includes('bad'));
        return {
          flagged,
          categories: { violence: flagged },
          scores: { violence: flagged ? 0.9 : 0.01 },
          appliedInputTypes: { violence: ['text'] },
        };
      });
    },
  };
  return { moderator, asked };
}

/** A port answering `answer`, recording the requests it got; `fails` first calls fail retryably. */
function port(answer: string, opts: { moderatesInBand?: boolean; fails?: number } = {}) {
  const seen: TextRequest[] = [];
  let fails = opts.fails ?? 0;
  const result: TextResult = {
    model: 'u',
    content: [{ type: 'text', text: answer }],
    finishReason: 'stop',
    usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
    warnings: [],
  };
  const p: TextModelPort = {
    ...(opts.moderatesInBand ? { moderatesInBand: true } : {}),
    async generate(req) {
      seen.push(req);
      if (fails-- > 0) throw new GatewayError('upstream_unavailable', 'down');
      return result;
    },
    async *stream(req) {
      seen.push(req);
      yield { type: 'text-delta', delta: answer };
      yield { type: 'finish', finishReason: 'stop', usage: result.usage };
    },
  };
  return { port: p, seen };
}

function setup(ports: Record<string, TextModelPort>, moderator?: TextModerator) {
  const deployments = Object.keys(ports).map((provider) => ({ provider, upstreamModel: `${provider}-m`, priority: 0, weight: 1 }));
  return new TextGeneration({
    catalogue: new ModelCatalogue([{ id: 'm', kind: 'text', deployments }], [{ name: 'all', models: ['*'] }]),
    providers: { text: (id) => ports[id] },
    usage: { record: () => {}, flush: async () => {} },
    random: () => 0,
    breaker: { consecutiveFailures: 5, coolDownMs: 1000 },
    moderator,
  });
}

const ask = (text: string, input: 'score' | 'block' = 'score', output: 'score' | 'block' = 'score'): TextRequest => ({
  model: 'm',
  system: 'Be kind.',
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text },
        { type: 'image', url: 'https://example.test/cat.png' },
      ],
    },
  ],
  moderation: { model: 'mod', input, output },
  native: { dialect: 'openai-chat', body: { model: 'm', moderation: { model: 'mod' } } },
});

async function drain(parts: AsyncIterable<TextStreamPart>): Promise<TextStreamPart[]> {
  const out: TextStreamPart[] = [];
  for await (const p of parts) out.push(p);
  return out;
}

describe('in-band moderation run by the gateway', () => {
  it('scores the whole input as one item (system, texts, images) and the output as another; the upstream never sees the policy', async () => {
    const { moderator, asked } = fakeModerator();
    const up = port('a fine answer');
    const result = await setup({ a: up.port }, moderator).generate(principal, ask('hello'), meta);
    expect(asked[0]).toEqual([
      { type: 'text', text: 'Be kind.\n\nhello' },
      { type: 'image', url: 'https://example.test/cat.png' },
    ]);
    expect(asked[1]).toEqual([{ type: 'text', text: 'a fine answer' }]);
    expect(result.moderation?.input).toMatchObject({ type: 'results', model: 'mod-id', results: [{ flagged: false }] });
    expect(result.moderation?.output).toMatchObject({ type: 'results', results: [{ flagged: false }] });
    expect(up.seen[0]!.moderation).toBeUndefined();
    expect(up.seen[0]!.native?.body).not.toHaveProperty('moderation');
  });

  it('block: a flagged input is never sent upstream', async () => {
    const up = port('x');
    const result = await setup({ a: up.port }, fakeModerator().moderator).generate(principal, ask('something bad', 'block'), meta);
    expect(up.seen).toHaveLength(0);
    expect(result).toMatchObject({
      content: [],
      finishReason: 'content-filter',
      moderation: { output: { type: 'error', code: 'input_blocked' } },
    });
  });

  it('block: a flagged output is withheld but its usage kept; score lets it through with the verdict', async () => {
    const gen = setup({ a: port('a bad answer').port }, fakeModerator().moderator);
    const blocked = await gen.generate(principal, ask('hello', 'score', 'block'), meta);
    expect(blocked).toMatchObject({ content: [], finishReason: 'content-filter', usage: { outputTokens: 2 } });
    const scored = await gen.generate(principal, ask('hello'), meta);
    expect(scored.content).toEqual([{ type: 'text', text: 'a bad answer' }]);
    expect(scored.moderation?.output).toMatchObject({ results: [{ flagged: true }] });
  });

  it('moderates the input once across a failover', async () => {
    const { moderator, asked } = fakeModerator();
    const first = port('never', { fails: 1 });
    const second = port('from b');
    const result = await setup({ a: first.port, b: second.port }, moderator).generate(principal, ask('hello'), meta);
    expect(result.content).toEqual([{ type: 'text', text: 'from b' }]);
    expect(asked).toHaveLength(2); // one input, one output
  });

  it('a failing moderation call is reported in score mode and withholds in block mode (fails closed)', async () => {
    const down = fakeModerator(() => true).moderator;
    const up = port('fine');
    const scored = await setup({ a: up.port }, down).generate(principal, ask('hello'), meta);
    expect(scored.content).toEqual([{ type: 'text', text: 'fine' }]);
    expect(scored.moderation?.input).toEqual({ type: 'error', code: 'upstream_unavailable', message: 'moderation down' });
    const blocked = await setup({ a: port('fine').port }, down).generate(principal, ask('hello', 'block'), meta);
    expect(blocked.finishReason).toBe('content-filter');
  });

  it('a stream under output block holds its text until the verdict; a clean one is released whole', async () => {
    const gen = setup({ a: port('a bad answer').port }, fakeModerator().moderator);
    const blocked = await drain(gen.stream(principal, ask('hello', 'score', 'block'), meta));
    expect(blocked.filter((p) => p.type === 'text-delta')).toEqual([]);
    expect(blocked.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: 'content-filter',
      moderation: { output: { results: [{ flagged: true }] } },
    });
    const clean = await drain(
      setup({ a: port('fine').port }, fakeModerator().moderator).stream(principal, ask('hello', 'score', 'block'), meta),
    );
    expect(clean.map((p) => p.type)).toEqual(['text-delta', 'finish']);
  });

  it('an unknown moderation model is the request error, named by its param, before any call', async () => {
    const up = port('x');
    await expect(
      setup({ a: up.port }, fakeModerator().moderator).generate(
        principal,
        { ...ask('hi'), moderation: { model: 'nope', input: 'score', output: 'score' } },
        meta,
      ),
    ).rejects.toMatchObject({ reason: 'model_not_found', param: 'moderation.model' });
    expect(up.seen).toHaveLength(0);
  });
});

describe('in-band moderation run by the upstream', () => {
  it('an upstream that moderates in band gets the policy as written and its verdicts pass through; the gateway runs nothing', async () => {
    const { moderator, asked } = fakeModerator();
    const up = port('answer', { moderatesInBand: true });
    await setup({ a: up.port }, moderator).generate(principal, ask('something bad', 'block'), meta);
    expect(asked).toHaveLength(0);
    expect(up.seen[0]!.moderation).toEqual({ model: 'mod', input: 'block', output: 'score' });
    expect(up.seen[0]!.native?.body).toHaveProperty('moderation');
  });
});
