import request from 'supertest';
import { ALPHA_KEY, BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.stop());

const create = (body: Record<string, unknown>, key = ALPHA_KEY) =>
  request(gw.app).post('/v1/responses').set('Authorization', `Bearer ${key}`).send(body);
const tools = [
  { type: 'function', name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
];

describe('item_reference input items', () => {
  it('resolve to the stored output items of the account (a message and a function call)', async () => {
    const first = await create({ model: 'sim-chat', input: 'Call weather please', tools });
    expect(first.status).toBe(200);
    const call = first.body.output.find((o: { type: string }) => o.type === 'function_call');
    expect(call).toBeDefined();
    const second = await create({
      model: 'sim-chat',
      tools,
      input: [
        { role: 'user', content: 'Call weather please' },
        { type: 'item_reference', id: call.id },
        { type: 'function_call_output', call_id: call.call_id, output: 'sunny and 21' },
      ],
    });
    expect(second.status).toBe(200);
    expect(second.body.output[0].content[0].text).toContain('sunny and 21');

    const plain = await create({ model: 'sim-chat', input: 'Say something' });
    const msg = plain.body.output[0];
    const third = await create({
      model: 'sim-chat',
      input: [
        { role: 'user', content: 'Say something' },
        { type: 'item_reference', id: msg.id },
        { role: 'user', content: 'Now more' },
      ],
    });
    expect(third.status).toBe(200);
    expect(third.body.usage.input_tokens).toBeGreaterThan(plain.body.usage.input_tokens + 2);
  });

  it("an unknown id, or another account's, is a 400 naming it", async () => {
    const other = await create({ model: 'sim-chat', input: 'beta says hi' }, BETA_KEY);
    for (const id of ['msg_nosuchitem', other.body.output[0].id]) {
      const res = await create({
        model: 'sim-chat',
        input: [
          { role: 'user', content: 'x' },
          { type: 'item_reference', id },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'item_reference_not_found', param: 'input[1].id', type: 'invalid_request_error' });
      expect(res.body.error.message).toContain(id);
    }
  });
});
