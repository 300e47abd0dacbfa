/** For tests only (`@gateway/provider-openai-compatible/testing`): fake OpenAI-compatible servers on 127.0.0.1. */
export { type FakeJinaRerank, startFakeJinaRerank } from './fake-jina-rerank';
export { type FakeWhisperServer, startFakeWhisperServer } from './fake-whisper-server';
