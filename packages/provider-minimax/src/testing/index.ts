/** For tests only (`@gateway/provider-minimax/testing`): a fake MiniMax upstream speaking its wire format on 127.0.0.1. */
export { type FakeMiniMax, startFakeMiniMax } from './fake-minimax-upstream';
