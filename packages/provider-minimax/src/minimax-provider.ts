import { bearerAuth, videoProvider } from '@gateway/provider-kit';
import { MINIMAX_DEFAULT_BASE_URL, MINIMAX_REQUEST_ID_HEADERS } from './minimax-api';
import { describeMiniMaxFailure } from './minimax-error';
import { MiniMaxVideoModel } from './minimax-video-model';

export const minimaxProvider = videoProvider('minimax', {
  defaultBaseUrl: MINIMAX_DEFAULT_BASE_URL,
  authHeaders: bearerAuth,
  requestIdHeaders: MINIMAX_REQUEST_ID_HEADERS,
  describeFailure: describeMiniMaxFailure,
  model: (http) => new MiniMaxVideoModel(http),
});
