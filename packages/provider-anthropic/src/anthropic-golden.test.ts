import path from 'node:path';
import { checkUpstream, parseSse } from '@gateway/provider-kit';
import { describeGoldenFixtures, sseChunks } from '@gateway/testkit';
import { readAnthropicStream } from './anthropic-chat-model';
import { anthropicMessageSchema } from './anthropic-api';
import { convertToAnthropicRequest } from './convert-to-anthropic-request';
import { mapAnthropicMessage } from './map-anthropic-response';
import { AnthropicStreamMapper } from './map-anthropic-stream';

describeGoldenFixtures('anthropic messages', path.join(__dirname, '__fixtures__'), {
  request: (canonical, fx) => convertToAnthropicRequest(canonical, { defaultMaxTokens: 4096 }, fx.stream),
  response: (upstream) => mapAnthropicMessage(checkUpstream(anthropicMessageSchema, upstream, 'a message'), 'requested-model', []),
  stream: (sse) => readAnthropicStream(parseSse(sseChunks(sse)), new AnthropicStreamMapper({ warnings: [] })),
});
