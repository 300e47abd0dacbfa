import { nativeBody, nativeRequestFor } from './native-request';
import type { TextRequest } from './text';

const canonical: TextRequest = { model: 'claude-up', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };

describe('native request (same-dialect passthrough)', () => {
  const native = { dialect: 'anthropic-messages', body: { model: 'claude-client', stream: true, context_management: { edits: [] } } };

  it('is offered only to an adapter of the same dialect', () => {
    expect(nativeRequestFor({ ...canonical, native }, 'anthropic-messages')).toBe(native);
    expect(nativeRequestFor({ ...canonical, native }, 'gemini-content')).toBeUndefined();
    expect(nativeRequestFor(canonical, 'anthropic-messages')).toBeUndefined();
  });

  it('is offered to none when the body may not go as written (it is converted instead)', () => {
    expect(nativeRequestFor({ ...canonical, native: { ...native, translate: true } }, 'anthropic-messages')).toBeUndefined();
  });

  it('replaces only the named fields, removes those set to undefined, and leaves the client body untouched', () => {
    expect(nativeBody(native, { model: 'claude-up', stream: undefined })).toEqual({
      model: 'claude-up',
      context_management: { edits: [] },
    });
    expect(native.body).toEqual({ model: 'claude-client', stream: true, context_management: { edits: [] } });
  });
});
