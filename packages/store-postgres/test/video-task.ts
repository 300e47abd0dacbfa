import type { NewVideoTask, VideoRequest } from '@gateway/core';

/** A new video task for the store's tests: a 5 s 720p render on the simulator, `over` changing what a test needs. */
export function videoTask(
  id: string,
  over: Partial<Omit<NewVideoTask, 'request'>> & { request?: Partial<VideoRequest> } = {},
): NewVideoTask {
  return {
    id,
    accountId: 'a',
    keyId: 'k',
    model: 'm',
    format: 'f',
    priority: 0,
    serviceTier: 'default',
    executionExpiresAfter: 3600,
    idempotencyKey: null,
    deployment: { provider: 'sim', upstreamModel: 'm' },
    callbackUrl: null,
    ...over,
    request: {
      model: 'm',
      prompt: 'p',
      durationSeconds: 5,
      resolution: '720p',
      aspectRatio: '16:9',
      generateAudio: true,
      fps: 24,
      ...over.request,
    },
  };
}
