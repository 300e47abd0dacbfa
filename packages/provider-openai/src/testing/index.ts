/** For tests only (`@gateway/provider-openai/testing`): a fake Sora upstream speaking its wire format on 127.0.0.1. */
export { type FakeSora, startFakeSora } from './fake-sora-upstream';
export { type FakeOpenAiEmbeddings, fakeOpenAiVector, startFakeOpenAiEmbeddings } from './fake-openai-embeddings';
export { type FakeOpenAiModerations, startFakeOpenAiModerations } from './fake-openai-moderations';
export { type FakeOpenAiAudio, fakeSpeechBytes, HOLD_SPEECH, startFakeOpenAiAudio } from './fake-openai-audio';
export { messageItem, outputText, responsesEvent, upstreamResponse } from './responses-events';
