export { describeContentStoreConformance } from './content-store.conformance';
export { startFakeS3, type FakeS3 } from './fake-s3';
export { describeKeyRepositoryConformance } from './key-repository.conformance';
export { describeTaskRepositoryConformance } from './task-repository.conformance';
export {
  ALPHA,
  BETA,
  createFakeVideoEngine,
  fakeArtifact,
  type FakeStep,
  fakeVideoCatalogue,
  FakeVideoModel,
  InMemoryContentStore,
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
  type FakeArk,
  type FakeDashScope,
  type FakeKling,
  type FakeMiniMax,
  type FakeRunway,
  RUNWAY_API_VERSION,
  startFakeDashScope,
  startFakeKling,
  startFakeMiniMax,
  startFakeRunway,
  verifyHs256,
  type FakeBehaviour,
  type FakeDialectName,
  fakeMp4,
  type FakeHttpServer,
  type FakeSora,
  FakeTaskBook,
  type FakeUpstream,
  type FakeVeo,
  pollUntilSettled,
  readStream,
  type RecordedRequest,
  refusedUrl,
  sseChunks,
  startFakeArk,
  startFakeSora,
  startFakeUpstream,
  startFakeVeo,
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
