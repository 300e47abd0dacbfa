import path from 'node:path';
import {
  ChatStreamMapper,
  convertToChatRequest,
  mapChatCompletion,
  OPENAI_CHAT_DIALECT,
  parseSse,
  readChatStream,
  chatCompletionSchema,
  checkUpstream,
} from '@gateway/provider-kit';
import { describeGoldenFixtures, sseChunks } from '@gateway/testkit';

describeGoldenFixtures('openai chat completions', path.join(__dirname, '__fixtures__'), {
  request: (canonical, fx) => convertToChatRequest(canonical, OPENAI_CHAT_DIALECT, fx.stream),
  response: (upstream) => mapChatCompletion(checkUpstream(chatCompletionSchema, upstream, 'a completion'), 'requested-model', []),
  stream: (sse) => readChatStream(parseSse(sseChunks(sse)), new ChatStreamMapper({ warnings: [] })),
});
