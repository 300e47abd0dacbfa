import OpenAI from 'openai';
import { eventually } from '@gateway/testkit';
import { ALPHA_KEY, startTestGateway, testConfigFile, withPricing, type TestGateway } from './support/test-gateway';

/**
 * A priced stream the client leaves is charged for its input and what was delivered, as a user would try it: the
 * official OpenAI SDK reads two parts, then leaves (breaking out of the loop aborts its request).
 */
describe('a priced stream the client closes after two parts', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    const base = testConfigFile({ providers: [{ id: 'sim', type: 'simulator', options: { chunkDelayMs: 150 } }] });
    gw = await startTestGateway({
      config: withPricing(base, { 'sim-chat': { inputPerMillionTokens: 1000, outputPerMillionTokens: 2000 } }),
    });
  });
  afterAll(async () => gw.stop());

  it('is recorded as client_closed WITH credits, and the account is charged them once', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: ALPHA_KEY, maxRetries: 0 });
    const { data: stream, response } = await client.chat.completions
      .create({
        model: 'sim-chat',
        stream: true,
        messages: [{ role: 'user', content: 'tell me a long story about a lighthouse keeper and the sea at night, please' }],
      })
      .withResponse();
    const requestId = response.headers.get('x-request-id')!;
    let parts = 0;
    let delivered = '';
    for await (const chunk of stream) {
      delivered += chunk.choices[0]?.delta?.content ?? '';
      if (++parts === 2) break;
    }
    expect(delivered.length).toBeGreaterThan(0);

    let row: Record<string, any> | undefined;
    await eventually(async () => {
      await gw.usage.flush();
      row = await gw.db.knex('usage_log').where({ request_id: requestId }).first();
      expect(row).toBeDefined();
    });
    if (!row) throw new Error('no usage row');
    expect(row).toMatchObject({ status: 'cancelled', http_status: 499, error_code: 'client_closed' });
    expect(Number(row.input_tokens)).toBeGreaterThan(0);
    expect(Number(row.output_tokens)).toBeGreaterThan(0);
    const credits = Number(row.credits);
    expect(credits).toBeCloseTo((Number(row.input_tokens) * 1000 + Number(row.output_tokens) * 2000) / 1e6, 6);
    const ledger = await gw.db.knex('credit_ledger').where({ usage_row_id: row.row_id }).select();
    expect(ledger.map((l) => Number(l.amount))).toEqual([credits]);
    const quota = await gw.db.knex('account_quotas').where({ account_id: 'alpha' }).first();
    expect(Number(quota.credits_used)).toBeCloseTo(credits, 6);
  });
});
