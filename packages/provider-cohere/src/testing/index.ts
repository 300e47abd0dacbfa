/** For tests only (`@gateway/provider-cohere/testing`): a fake Cohere v2 upstream on 127.0.0.1. */
export { type FakeCohere, startFakeCohere } from './fake-cohere-upstream';
