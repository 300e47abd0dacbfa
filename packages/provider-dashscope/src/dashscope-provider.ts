import { bearerAuth, videoProvider } from '@gateway/provider-kit';
import { DASHSCOPE_DEFAULT_BASE_URL, DASHSCOPE_REQUEST_ID_HEADERS } from './dashscope-api';
import { describeDashScopeFailure } from './dashscope-error';
import { DashScopeVideoModel } from './dashscope-video-model';

export const dashscopeProvider = videoProvider('dashscope', {
  defaultBaseUrl: DASHSCOPE_DEFAULT_BASE_URL,
  authHeaders: bearerAuth,
  requestIdHeaders: DASHSCOPE_REQUEST_ID_HEADERS,
  describeFailure: describeDashScopeFailure,
  model: (http) => new DashScopeVideoModel(http),
});
