import path from 'node:path';
import { checkUpstream, parseSse } from '@gateway/provider-kit';
import { describeGoldenFixtures, sseChunks } from '@gateway/testkit';
import { googleResponseSchema } from './google-api';
import { readGoogleStream } from './google-chat-model';
import { convertToGoogleRequest, type GoogleRequestOptions } from './convert-to-google-request';
import { mapGoogleResponse } from './map-google-response';
import { GoogleStreamMapper } from './map-google-stream';

const DEFAULTS: GoogleRequestOptions = { schemaDialect: 'json-schema', thinkingStyle: 'budget' };
/** Gemini leaves some calls without ids; fixtures expect these stand-ins, in order. */
const goldenIds = () => {
  let n = 0;
  return () => `call_golden_${++n}`;
};

describeGoldenFixtures('google generateContent', path.join(__dirname, '__fixtures__'), {
  request: (canonical, fx) => convertToGoogleRequest(canonical, { ...DEFAULTS, ...(fx.options as Partial<GoogleRequestOptions>) }),
  response: (upstream) => mapGoogleResponse(checkUpstream(googleResponseSchema, upstream, 'an answer'), 'requested-model', [], goldenIds()),
  stream: (sse) => readGoogleStream(parseSse(sseChunks(sse)), new GoogleStreamMapper({ warnings: [] }, goldenIds())),
});
