import { describeVideoModelConformance, fakeVideoConformanceBase } from '@gateway/testkit';
import { startFakeSora } from './testing';
import { createOpenAiProvider } from './openai-provider';

describeVideoModelConformance('openai (Sora)', async () => {
  const { fake, base } = await fakeVideoConformanceBase(
    (clock) => startFakeSora({ queuedMs: 60, runningMs: 100, now: clock.now }),
    (f, apiKey = f.apiKey) => createOpenAiProvider({ baseUrl: f.url, apiKey }),
    'sk-wrong-openai-key',
  );
  return {
    ...base,
    rateLimitNextPoll: (s) => fake.api.failNext('poll', 1, { status: 429, retryAfterSeconds: s }),
    rateLimitHasRetryAfter: true,
    fail: { prompt: 'conformance [fail]', code: 'video_generation_failed' },
    holdPrompt: '[hold]',
    reportsQueue: true,
    // the video object's `size` and `seconds`; no frame rate
    statedShape: ['width', 'height', 'durationSeconds'],
    request: { upstreamModel: 'sora-2' },
    unknownRef: 'video_nosuchvideo',
    secrets: [fake.apiKey],
  };
});
