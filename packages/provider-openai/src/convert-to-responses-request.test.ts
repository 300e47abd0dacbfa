import type { TextRequest } from '@gateway/provider-kit';
import { convertToResponsesRequest } from './convert-to-responses-request';

const canonical: TextRequest = { model: 'gpt-up', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
const body = { model: 'client', input: 'hi', prompt_cache_key: 'k' };

describe('convertToResponsesRequest and the client’s own Responses body', () => {
  it('sends the body as written, with the deployment’s model', () => {
    const req = { ...canonical, native: { dialect: 'openai-responses', body, unread: ['prompt_cache_key'] } };
    expect(convertToResponsesRequest(req, false).body).toEqual({ ...body, model: 'gpt-up' });
  });

  it('converts a body it may not send as written (sealed compaction items), keeping its unread fields', () => {
    const req = { ...canonical, native: { dialect: 'openai-responses', body, unread: ['prompt_cache_key'], translate: true as const } };
    const { body: sent, warnings } = convertToResponsesRequest(req, false);
    expect(sent).toMatchObject({
      model: 'gpt-up',
      prompt_cache_key: 'k',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
    });
    expect(warnings).toEqual([]);
  });
});
