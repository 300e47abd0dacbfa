import { describeVideoModelConformance, ManualClock, startFakeSora } from '@gateway/testkit';
import { createOpenAiProvider } from './openai-provider';

describeVideoModelConformance('openai (Sora)', async () => {
  const clock = new ManualClock();
  const fake = await startFakeSora({ queuedMs: 60, runningMs: 100, now: clock.now });
  const good = createOpenAiProvider({ baseUrl: fake.url, apiKey: fake.apiKey });
  const bad = createOpenAiProvider({ baseUrl: fake.url, apiKey: 'sk-wrong-openai-key' });
  return {
    model: good.video,
    badCredentialsModel: bad.video,
    advance: (ms) => clock.advance(ms),
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
    close: async () => {
      good.close();
      bad.close();
      await fake.close();
    },
  };
});
