import type { FakeDialectName } from './fake-upstream-server';

/** 200 answers of each dialect with a field of the wrong type; none may reach a mapper unchecked. */
export const MALFORMED_ANSWERS: Record<FakeDialectName, { answers: string[]; chunk: string }> = {
  openai: {
    answers: ['{"choices":"x"}', '{"choices":[{"message":{"content":5}}]}', '{"choices":[{"message":{"tool_calls":{}}}]}'],
    chunk: 'data: {"choices":[{"delta":{"content":5}}]}\n\n',
  },
  anthropic: {
    answers: ['{"content":5}', '{"content":[{"type":"text","text":["a"]}]}', '{"content":[],"usage":"many"}'],
    chunk: 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":"ten"}}}\n\n',
  },
  gemini: {
    answers: ['{"candidates":[{"content":{"parts":"no"}}]}', '{"candidates":"x"}', '{"candidates":[{"finishReason":3}]}'],
    chunk: 'data: {"candidates":[{"content":{"parts":[{"text":{}}]}}]}\n\n',
  },
};
