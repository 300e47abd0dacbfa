export { chunksOf, DEFAULT_USAGE, type FakeBehaviour, type FakeReply, type RecordedRequest } from './fake-script';
export { type FakeDialect, type FakeRoute, finishOf, sse } from './fake-dialect';
export { openAiChatDialect } from './fake-openai-chat';
export { openAiResponsesDialect } from './fake-openai-responses';
export { anthropicMessagesDialect } from './fake-anthropic-messages';
export { geminiContentDialect } from './fake-gemini-content';
export { FAKE_DIALECTS, type FakeDialectName, type FakeUpstream, refusedUrl, startFakeUpstream } from './fake-upstream-server';
export { type ConformanceTarget, describeTextModelConformance, type TextModelConformanceOptions } from './text-model.conformance';
export { describeGoldenFixtures, type GoldenAdapter, sseChunks } from './golden-fixtures';
export {
  type FakeFailure,
  type FakeHttpRequest,
  type FakeHttpServer,
  fakeMp4,
  type FakeOutcome,
  type FakeRouteKind,
  type FakeTask,
  FakeTaskBook,
  type FakeTaskScript,
  type FakeTaskState,
  type FakeVideoOptions,
  type FakeVideoRoute,
  bearerJsonRoutes,
  bearerRoutes,
  readJson,
  readMultipart,
  sendBytes,
  sendJson,
  startFakeHttp,
} from './fake-video-tasks';
export { type FakeJsonApi, startFakeJsonApi } from './fake-json-api';
export { type FakeStoredVideoUpstream, type FakeVideoStorage, startFakeVideoStorage, storedVideoUpstream } from './fake-video-storage';
export { describeVideoModelConformance, type VideoConformanceTarget } from './video-model.conformance';
export {
  fakeVideoConformanceBase,
  pollUntilSettled,
  readStream,
  taggedBase64,
  taggedDataUrl,
  taggedFrame,
  useFakeVideoUpstream,
  videoRequest,
} from './video-port-helpers';
export { MALFORMED_ANSWERS } from './malformed-answers';
export { fakeRanking, fakeTokenCount, fakeVector } from './fake-retrieval';
