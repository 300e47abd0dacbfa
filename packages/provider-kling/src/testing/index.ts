/** For tests only (`@gateway/provider-kling/testing`): a fake Kling upstream speaking its wire format on 127.0.0.1. */
export { type FakeKling, type FakeKlingOptions, startFakeKling } from './fake-kling-upstream';
export { type JwtVerdict, verifyHs256 } from './fake-jwt';
