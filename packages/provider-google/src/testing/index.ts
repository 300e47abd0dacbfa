/** For tests only (`@gateway/provider-google/testing`): a fake Veo upstream speaking its wire format on 127.0.0.1. */
export { type FakeVeo, type FakeVeoOptions, startFakeVeo } from './fake-veo-upstream';
export { type FakeGeminiEmbed, startFakeGeminiEmbed } from './fake-gemini-embed';
