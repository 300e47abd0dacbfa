import { bearerAuth, videoProvider } from '@gateway/provider-kit';
import { RUNWAY_DEFAULT_BASE_URL, RUNWAY_REQUEST_ID_HEADERS, RUNWAY_VERSION } from './runway-api';
import { describeRunwayFailure } from './runway-error';
import { RunwayVideoModel } from './runway-video-model';

export const runwayProvider = videoProvider('runway', {
  defaultBaseUrl: RUNWAY_DEFAULT_BASE_URL,
  authHeaders: (apiKey) => ({ ...bearerAuth(apiKey), 'x-runway-version': RUNWAY_VERSION }),
  requestIdHeaders: RUNWAY_REQUEST_ID_HEADERS,
  describeFailure: describeRunwayFailure,
  model: (http) => new RunwayVideoModel(http),
});
