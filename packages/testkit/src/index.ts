export { describeContentStoreConformance } from './content-store.conformance';
export { startFakeS3, type FakeS3 } from './fake-s3';
export { describeKeyRepositoryConformance } from './key-repository.conformance';
export { describeResponseCacheStoreConformance } from './response-cache-store.conformance';
export { describeTaskRepositoryConformance, moveTask } from './task-repository.conformance';
export {
  ALPHA,
  BETA,
  createFakeVideoEngine,
  fakeArtifact,
  type FakeStep,
  fakeVideoCatalogue,
  FakeVideoModel,
  InMemoryContentStore,
  InMemoryResponseCacheStore,
  InMemoryConversationStore,
  InMemoryTaskRepository,
  ManualClock,
  MemoryUsageLog,
} from './fakes';
export {
  describeGoldenFixtures,
  describeTextModelConformance,
  describeVideoModelConformance,
  FAKE_DIALECTS,
  fakeVideoConformanceBase,
  MALFORMED_ANSWERS,
  type FakeBehaviour,
  type FakeDialectName,
  fakeMp4,
  type FakeHttpServer,
  FakeTaskBook,
  fakeRanking,
  fakeTokenCount,
  fakeVector,
  type FakeHttpRequest,
  type FakeTask,
  type FakeVideoOptions,
  bearerJsonRoutes,
  bearerRoutes,
  readJson,
  readMultipart,
  sendBytes,
  sendJson,
  startFakeHttp,
  type FakeJsonApi,
  startFakeJsonApi,
  type FakeStoredVideoUpstream,
  startFakeVideoStorage,
  storedVideoUpstream,
  type FakeUpstream,
  pollUntilSettled,
  readStream,
  type RecordedRequest,
  refusedUrl,
  sseChunks,
  startFakeUpstream,
  taggedBase64,
  taggedDataUrl,
  taggedFrame,
  useFakeVideoUpstream,
  videoRequest,
} from './fake-upstreams';
export { jpegHeader, pngHeader, refusal } from './fixtures';
export { eventually } from './eventually';
export { describeWithService, externalServiceUrl } from './external-services';
export { runWorkerOnce } from './worker-round';
