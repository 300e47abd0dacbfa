import { describeResponseCacheStoreConformance } from '../response-cache-store.conformance';
import { InMemoryResponseCacheStore } from './in-memory-response-cache';

describeResponseCacheStoreConformance('in memory', async ({ maxBytes }) => ({
  store: new InMemoryResponseCacheStore(maxBytes),
  done: async () => undefined,
}));
