import {
  anthropicMessagesDriver,
  geminiContentDriver,
  openAiChatDriver,
  openAiResponsesDriver,
  type InboundDriver,
} from '../support/inbound-drivers';
import { startProviderGateway, UPSTREAMS, usageRow, type ProviderGateway } from '../support/provider-gateway';
import { BETA_KEY } from '../support/test-gateway';

/**
 * Every inbound format × every upstream dialect, through a real gateway whose models are served by
 * fake upstreams speaking each provider's wire format. A new inbound format is one driver in this list.
 */
const INBOUND: InboundDriver[] = [openAiChatDriver, anthropicMessagesDriver, geminiContentDriver, openAiResponsesDriver];

let pg: ProviderGateway;
beforeAll(async () => {
  pg = await startProviderGateway();
});
afterAll(async () => {
  await pg.stop();
});
beforeEach(() => Object.values(pg.fakes).forEach((f) => f.reset()));

describe.each(INBOUND)('inbound $name', (inbound) => {
  describe.each(UPSTREAMS)('→ upstream $name', (up) => {
    const fake = () => pg.fakes[up.name];

    it.each([false, true])('answers text (stream: %s)', async (stream) => {
      const text = await inbound.text(pg.gw.url, up.model, `hello ${inbound.name}`, stream);
      expect(text).toBe(`fake-${up.dialect} says: hello ${inbound.name}`);
      const sent = fake()!.requests[0];
      expect(JSON.stringify({ path: sent!.path, body: sent!.body })).toContain(up.upstreamModel);
    });

    it.each([false, true])('round-trips a tool call (stream: %s)', async (stream) => {
      fake()!.enqueue(
        { reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
        {
          reply: (req) => ({
            text: JSON.stringify(req.body).includes('sunny 21C') ? 'It is sunny in Paris.' : 'the tool result never arrived',
          }),
        },
      );
      const r = await inbound.toolRoundTrip(pg.gw.url, up.model, 'sunny 21C', stream);
      expect(r.call).toEqual({ name: 'get_weather', args: { city: 'Paris' } });
      expect(r.answer).toBe('It is sunny in Paris.');
      expect(fake()!.requests).toHaveLength(2);
      expect(JSON.stringify(fake()!.requests[0]!.body)).toContain('get_weather');
    });
  });
});

describe('what an upstream cannot honour', () => {
  it('is reported in x-gateway-warnings and in the usage log, never silently dropped', async () => {
    const res = await fetch(`${pg.gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BETA_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'via-anthropic', messages: [{ role: 'user', content: 'hi' }], presence_penalty: 0.5, seed: 3 }),
    });
    expect(res.status).toBe(200);
    const header = res.headers.get('x-gateway-warnings') ?? '';
    expect(header).toContain('presencePenalty: not supported by Anthropic; ignored');
    expect(header).toContain('seed: not supported by Anthropic; ignored');
    const row = await usageRow(pg.gw, res.headers.get('x-request-id')!);
    expect(row.warnings).toEqual(expect.arrayContaining(['seed: not supported by Anthropic; ignored']));
    expect(pg.fakes.anthropic!.requests[0]!.body).not.toHaveProperty('seed');
  });

  it('names caller-chosen fields only sanitised, in one header of at most 1 KB', async () => {
    const extra = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field_${i}<b>\u0001`, 1]));
    const res = await fetch(`${pg.gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BETA_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'via-anthropic', messages: [{ role: 'user', content: 'hi' }], ...extra }),
    });
    expect(res.status).toBe(200);
    const header = res.headers.get('x-gateway-warnings') ?? '';
    expect(header).toContain('field_0?b??: has no equivalent in the upstream format; not sent');
    expect(header.length).toBeLessThanOrEqual(1024);
    expect(header).not.toMatch(/[<>\u0000-\u001f]/);
  });
});
