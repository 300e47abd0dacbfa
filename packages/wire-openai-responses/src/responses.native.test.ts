import { GatewayError, type TextStreamPart } from '@gateway/core';
import { NativeEventRelay } from './responses.native';

const header = (body: Record<string, unknown> = {}) => ({ id: 'resp_gw01', createdAt: 1, model: 'client-model', body });
const upstream = { id: 'resp_up', object: 'response', model: 'gpt-5-mini', previous_response_id: null, status: 'completed', output: [] };
const native = (type: string, data: object): TextStreamPart => ({
  type: 'native-event',
  dialect: 'openai-responses',
  event: type,
  data: { type, ...data },
});
const DELTAS =
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":2,"item_id":"msg_1","delta":"a"}\n\n' +
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":3,"item_id":"msg_1","delta":"\\"sequence_number\\":99"}\n\n';
const forwarded: TextStreamPart = {
  type: 'forwarded-events',
  dialect: 'openai-responses',
  text: DELTAS,
  generated: 'a"sequence_number":99',
};

async function* parts(list: TextStreamPart[]) {
  yield* list;
}

describe('NativeEventRelay', () => {
  it("offers forwarding with the response object's fields it writes, previous_response_id when the request names one", () => {
    expect(new NativeEventRelay(header()).forwarding()).toEqual({
      dialect: 'openai-responses',
      fields: { id: 'resp_gw01', model: 'client-model' },
    });
    expect(new NativeEventRelay(header({ previous_response_id: 'resp_gw00' })).forwarding().fields).toEqual({
      id: 'resp_gw01',
      model: 'client-model',
      previous_response_id: 'resp_gw00',
    });
  });

  it('relays forwarded events as their text and owns the response objects of the native ones; the last is the document', async () => {
    const relay = new NativeEventRelay(header({ previous_response_id: 'resp_gw00' }));
    const stream = [native('response.created', { sequence_number: 0, response: upstream }), forwarded];
    for await (const _ of relay.watch(parts(stream))) break;
    expect(relay.active).toBe(true);
    const owned = { ...upstream, id: 'resp_gw01', model: 'client-model', previous_response_id: 'resp_gw00' };
    expect(relay.relay(stream[0]!)).toEqual([
      { event: 'response.created', data: { type: 'response.created', sequence_number: 0, response: owned } },
    ]);
    expect(relay.relay(forwarded)).toEqual([{ raw: DELTAS }]);
    // the canonical parts beside them add nothing
    expect(relay.relay({ type: 'text-delta', delta: 'a' })).toEqual([]);
    expect(relay.document).toBeUndefined();
    relay.relay(native('response.completed', { sequence_number: 4, response: upstream }));
    expect(relay.document).toEqual(owned);
  });

  it('a failure after forwarded events is numbered after the last of them, not after a number inside a delta', () => {
    const relay = new NativeEventRelay(header());
    relay.relay(native('response.created', { sequence_number: 0, response: upstream }));
    relay.relay(forwarded);
    const [error, failed] = relay.fail(new GatewayError('upstream_unavailable', 'gone', { code: 'upstream_response_failed' }));
    expect(error).toMatchObject({ event: 'error', data: { sequence_number: 4, code: 'upstream_response_failed' } });
    expect(failed).toMatchObject({
      event: 'response.failed',
      data: { sequence_number: 5, response: { id: 'resp_gw01', status: 'failed' } },
    });
  });

  it('a stream of another dialect, or of canonical parts only, is not relayed', async () => {
    const relay = new NativeEventRelay(header());
    const other: TextStreamPart = { type: 'forwarded-events', dialect: 'openai-chat', text: 'data: {}\n\n', generated: '' };
    for await (const _ of relay.watch(parts([other, { type: 'text-delta', delta: 'x' }])));
    expect(relay.active).toBe(false);
    expect(relay.relay(other)).toEqual([]);
  });
});
