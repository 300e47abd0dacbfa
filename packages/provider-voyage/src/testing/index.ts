/** For tests only (`@gateway/provider-voyage/testing`): a fake Voyage AI upstream on 127.0.0.1. */
export { type FakeVoyage, startFakeVoyage } from './fake-voyage-upstream';
