import { forwardingFor, forwardingOffer, type StreamForwarding } from './stream-forwarding';
import type { TextRequest } from './text';

const offer: StreamForwarding = { dialect: 'openai-chat', fields: { id: 'chatcmpl-1', model: 'client-model' } };
const none = { guarded: false, cached: false, moderated: false };
const native = { dialect: 'openai-chat', body: { model: 'client-model', stream: true } };
const request = (n?: TextRequest['native']): Pick<TextRequest, 'native'> => (n ? { native: n } : {});

describe('stream forwarding: when a stream may go as the upstream sends it', () => {
  it('keeps the offer when nothing between the upstream and the client reads the parts', () => {
    expect(forwardingOffer(offer, none)).toBe(offer);
    expect(forwardingOffer(undefined, none)).toBeUndefined();
  });

  it.each([['guarded'], ['cached'], ['moderated']] as const)('withdraws it when the call is %s', (layer) => {
    expect(forwardingOffer(offer, { ...none, [layer]: true })).toBeUndefined();
  });

  it('is taken only by an upstream adapter of the client dialect, for a request written in it that goes as written', () => {
    expect(forwardingFor(request(native), { forward: offer }, 'openai-chat')).toBe(offer);
    expect(forwardingFor(request(native), { forward: offer }, 'anthropic-messages')).toBeUndefined();
    expect(
      forwardingFor(
        request({ ...native, dialect: 'anthropic-messages' }),
        { forward: { ...offer, dialect: 'anthropic-messages' } },
        'openai-chat',
      ),
    ).toBeUndefined();
    expect(forwardingFor(request(), { forward: offer }, 'openai-chat')).toBeUndefined();
    expect(forwardingFor(request({ ...native, translate: true }), { forward: offer }, 'openai-chat')).toBeUndefined();
    expect(forwardingFor(request(native), {}, 'openai-chat')).toBeUndefined();
  });
});
