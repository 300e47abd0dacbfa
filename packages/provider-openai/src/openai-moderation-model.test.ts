import { UpstreamClient } from '@gateway/provider-kit';
import { startFakeOpenAiModerations, type FakeOpenAiModerations } from '@gateway/provider-openai/testing';
import { describeOpenAiFailure } from './openai-error';
import { OpenAiModerationModel } from './openai-moderation-model';

const ctx = () => ({ requestId: 'test-request', signal: new AbortController().signal });

describe('OpenAI moderations against the fake upstream', () => {
  let fake: FakeOpenAiModerations;
  let http: UpstreamClient;
  let model: OpenAiModerationModel;
  beforeAll(async () => {
    fake = await startFakeOpenAiModerations();
    http = new UpstreamClient({
      baseUrl: fake.url,
      headers: { authorization: `Bearer ${fake.apiKey}` },
      describeFailure: describeOpenAiFailure,
    });
    model = new OpenAiModerationModel(http);
  });
  afterAll(async () => {
    http.destroy();
    await fake.close();
  });

  it('sends texts in one call, one result each, in order', async () => {
    const result = await model.moderate(
      { model: 'omni-moderation-latest', items: [[{ type: 'text', text: 'hello' }], [{ type: 'text', text: 'attack now' }]] },
      ctx(),
    );
    expect(fake.bodies().at(-1)).toEqual({ model: 'omni-moderation-latest', input: ['hello', 'attack now'] });
    expect(result.results.map((r) => r.flagged)).toEqual([false, true]);
    expect(result.results[1]!.categories.violence).toBe(true);
    expect(Object.keys(result.results[1]!.scores)).toHaveLength(13);
    expect(result.upstreamRequestId).toBe('req_fake_mod');
  });

  it('sends a multi-modal item as parts, one call per item', async () => {
    const result = await model.moderate(
      {
        model: 'omni-moderation-latest',
        items: [
          [
            { type: 'text', text: 'look' },
            { type: 'image', url: 'https://example.com/a.png' },
          ],
          [{ type: 'text', text: 'attack' }],
        ],
      },
      ctx(),
    );
    expect(fake.bodies().slice(-2)).toEqual([
      {
        model: 'omni-moderation-latest',
        input: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        ],
      },
      { model: 'omni-moderation-latest', input: [{ type: 'text', text: 'attack' }] },
    ]);
    expect(result.results[0]!.appliedInputTypes.violence).toEqual(['text', 'image']);
    expect(result.results[1]!.flagged).toBe(true);
  });

  it("passes OpenAI's refusal of a retired model on as the caller's error", async () => {
    await expect(model.moderate({ model: 'text-moderation-latest', items: [[{ type: 'text', text: 'x' }]] }, ctx())).rejects.toMatchObject({
      reason: 'invalid_request',
    });
  });
});
