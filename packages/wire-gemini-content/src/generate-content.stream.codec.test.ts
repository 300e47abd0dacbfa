import type { TextStreamPart } from '@gateway/core';
import { GenerateContentChunkEncoder } from './generate-content.stream.codec';

const who = { responseId: 'r1', modelVersion: 'sim-chat' };
const usage = { inputTokens: 3, outputTokens: 4, totalTokens: 7, reasoningTokens: 1 };

function run(parts: TextStreamPart[], includeThoughts = false): any[] {
  const enc = new GenerateContentChunkEncoder(who, includeThoughts);
  return parts.flatMap((p) => enc.encode(p));
}

describe('GenerateContentChunkEncoder', () => {
  it('sends one chunk per text delta and a closing chunk with finishReason and usage', () => {
    const chunks = run([
      { type: 'text-delta', delta: 'Hello ' },
      { type: 'text-delta', delta: 'world' },
      { type: 'finish', finishReason: 'stop', usage },
    ]);
    expect(chunks).toHaveLength(3);
    for (const c of chunks)
      expect(c).toMatchObject({ modelVersion: 'sim-chat', responseId: 'r1', candidates: [{ index: 0, content: { role: 'model' } }] });
    expect(chunks.map((c) => c.candidates[0].content.parts.map((p: any) => p.text).join('')).join('')).toBe('Hello world');
    expect(chunks[0].candidates[0].finishReason).toBeUndefined();
    expect(chunks[0].usageMetadata).toBeUndefined();
    expect(chunks[2].candidates[0].finishReason).toBe('STOP');
    expect(chunks[2].usageMetadata).toEqual({ promptTokenCount: 3, candidatesTokenCount: 3, totalTokenCount: 7, thoughtsTokenCount: 1 });
  });

  it('gathers a function call and sends it whole with the last chunk', () => {
    const chunks = run([
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a"' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: ':1}' },
      { type: 'finish', finishReason: 'tool-calls', usage },
    ]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0].candidates[0]).toMatchObject({
      finishReason: 'STOP',
      content: { parts: [{ functionCall: { id: 'c1', name: 'f', args: { a: 1 } } }] },
    });
  });

  it('streams thoughts only when asked', () => {
    const parts: TextStreamPart[] = [
      { type: 'reasoning-delta', delta: 'hm' },
      { type: 'reasoning-delta', delta: '', signature: 'sig' },
      { type: 'finish', finishReason: 'stop', usage },
    ];
    expect(run(parts, false)).toHaveLength(1);
    const withThoughts = run(parts, true);
    expect(withThoughts.slice(0, 2).map((c) => c.candidates[0].content.parts[0])).toEqual([
      { text: 'hm', thought: true },
      { text: '', thought: true, thoughtSignature: 'sig' },
    ]);
  });

  it('offers forwarding with the fields every chunk ends with, and relays forwarded and native events as they are', () => {
    const enc = new GenerateContentChunkEncoder(who, false);
    expect(enc.forwarding()).toEqual({ dialect: 'gemini-content', fields: { modelVersion: 'sim-chat', responseId: 'r1' } });
    const text = 'data: {"candidates":[],"modelVersion":"sim-chat","responseId":"r1"}\n\n';
    expect(enc.messages({ type: 'forwarded-events', dialect: 'gemini-content', text, generated: '' })).toEqual([{ raw: text }]);
    const data = { candidates: [], groundingMetadata: {} };
    expect(enc.messages({ type: 'native-event', dialect: 'gemini-content', event: 'message', data })).toEqual([{ data }]);
    expect(enc.messages({ type: 'native-event', dialect: 'openai-chat', event: 'message', data })).toEqual([]);
    // the canonical parts beside forwarded events add nothing
    expect(enc.messages({ type: 'finish', finishReason: 'stop', usage })).toEqual([]);
  });

  it('encodes canonical parts as messages when nothing is forwarded', () => {
    const enc = new GenerateContentChunkEncoder(who, false);
    expect(enc.messages({ type: 'text-delta', delta: 'hi' })).toEqual([{ data: expect.objectContaining({ responseId: 'r1' }) }]);
  });
});
