export { InMemoryTaskRepository } from './in-memory-task-repository';
export { InMemoryContentStore } from './in-memory-content-store';
export { InMemoryConversationStore } from './in-memory-conversation-store';
export { DEFAULT_PLAN, fakeArtifact, type FakeStep, FakeVideoModel, type FakeVideoModelOptions } from './fake-video-model';
export { MemoryUsageLog } from './memory-usage-log';
export { ManualClock } from './manual-clock';
export { ALPHA, BETA, createFakeVideoEngine, fakeVideoCatalogue } from './fake-video-engine';
export { InMemoryResponseCacheStore } from './in-memory-response-cache';
