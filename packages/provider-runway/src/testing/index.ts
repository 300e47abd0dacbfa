/** For tests only (`@gateway/provider-runway/testing`): a fake Runway upstream speaking its wire format on 127.0.0.1. */
export { type FakeRunway, RUNWAY_API_VERSION, startFakeRunway } from './fake-runway-upstream';
