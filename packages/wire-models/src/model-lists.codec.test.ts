import type { ModelSpec } from '@gateway/core';
import { pageAnthropicModels } from './anthropic-models.codec';
import { encodeGeminiModel, pageGeminiModels } from './gemini-models.codec';
import { versionOf } from './model-metadata';

const spec = (id: string, kind: ModelSpec['kind'] = 'text'): ModelSpec => ({ id, kind, deployments: [] });
const many = Array.from({ length: 5 }, (_, i) => spec(`m${i}`));

describe('model list codecs', () => {
  it('an empty group gives an empty page with no token', () => {
    expect(pageGeminiModels([], {})).toEqual({ models: [] });
    expect(pageAnthropicModels([], {})).toEqual({ data: [], has_more: false, first_id: null, last_id: null });
  });

  it('a page that ends exactly at the last model carries no token', () => {
    const first = pageGeminiModels(many, { pageSize: '3' });
    expect(first.nextPageToken).toEqual(expect.any(String));
    const second = pageGeminiModels(many, { pageSize: '2', pageToken: first.nextPageToken });
    expect(second.models.map((m) => m.name)).toEqual(['models/m3', 'models/m4']);
    expect('nextPageToken' in second).toBe(false);
  });

  it('before_id pages backwards', () => {
    expect(pageAnthropicModels(many, { before_id: 'm4', limit: '2' })).toMatchObject({ first_id: 'm2', last_id: 'm3', has_more: true });
    expect(pageAnthropicModels(many, { before_id: 'm2', limit: '2' })).toMatchObject({ first_id: 'm0', last_id: 'm1', has_more: false });
  });

  it('version and limits come from the id and the kind defaults', () => {
    expect(versionOf(spec('gemini-2.5-flash'))).toBe('2.5');
    expect(versionOf(spec('sim-chat'))).toBe('001');
    expect(encodeGeminiModel(spec('v', 'video'))).toMatchObject({
      inputTokenLimit: 480,
      supportedGenerationMethods: ['predictLongRunning'],
    });
  });
});
