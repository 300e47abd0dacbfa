import type { FakeDialectName } from './fake-upstream-server';

/** 200 answers of each dialect with a field of the wrong type; none may reach a mapper unchecked. */
export const MALFORMED_ANSWERS: Record<FakeDialectName, { answers: string[]; chunk: string }> = {
  openai: {
    answers: ['{"choices":"x"}', '{"choices":[{"message":{"content":5}}]}', '{"choices":[{"message":{"tool_calls":{}}}]}'],
    chunk: 'data: {"choices":[{"delta":{"content":5}}]}\n\n',
  },
  'openai-responses': {
    answers: [
      '{"output":"x"}',
      '{"output":[{"type":"message","content":[{"type":"output_text","text":5}]}]}',
      '{"status":"completed","usage":"many"}',
    ],
    chunk: 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":7}\n\n',
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
