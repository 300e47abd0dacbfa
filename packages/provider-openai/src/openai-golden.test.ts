import path from 'node:path';
import {
  ChatStreamMapper,
  convertToChatRequest,
  mapChatCompletion,
  OPENAI_CHAT_DIALECT,
  parseSse,
  readChatStream,
  type ChatCompletion,
} from '@gateway/provider-kit';
import { describeGoldenFixtures, sseChunks } from '@gateway/testkit';

describeGoldenFixtures('openai chat completions', path.join(__dirname, '__fixtures__'), {
  request: (canonical, fx) => convertToChatRequest(canonical, OPENAI_CHAT_DIALECT, fx.stream),
  response: (upstream) => mapChatCompletion(upstream as ChatCompletion, 'requested-model', []),
  stream: (sse) => readChatStream(parseSse(sseChunks(sse)), new ChatStreamMapper({ warnings: [] })),
});
