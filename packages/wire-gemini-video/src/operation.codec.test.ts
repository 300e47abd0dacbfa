import type { VideoTask } from '@gateway/core';
import { encodeOperation, fileDownloadUri, GENERATE_VIDEO_RESPONSE_TYPE } from './operation.codec';

const task = (over: Partial<VideoTask>): VideoTask => ({
  id: 'abc123',
  accountId: 'a',
  keyId: 'k',
  model: 'sim-video-2.5',
  format: 'gemini-video',
  status: 'queued',
  progress: 0,
  request: {
    model: 'sim-video-2.5',
    prompt: 'p',
    durationSeconds: 5,
    resolution: '720p',
    aspectRatio: 'adaptive',
    generateAudio: true,
    fps: 24,
  },
  priority: 0,
  serviceTier: 'default',
  executionExpiresAfter: 3600,
  error: null,
  delivery: null,
  deployment: null,
  upstream: null,
  idempotencyKey: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  completedAt: null,
  ...over,
});

describe('encodeOperation', () => {
  it.each(['queued', 'running'] as const)('%s → done:false with the pollable name', (status) => {
    expect(encodeOperation(task({ status }), 'https://gw.example')).toEqual({
      name: 'models/sim-video-2.5/operations/abc123',
      done: false,
    });
  });

  it('succeeded → the generatedSamples response with an https download uri', () => {
    expect(encodeOperation(task({ status: 'succeeded' }), 'https://gw.example/')).toEqual({
      name: 'models/sim-video-2.5/operations/abc123',
      done: true,
      response: {
        '@type': GENERATE_VIDEO_RESPONSE_TYPE,
        generateVideoResponse: {
          generatedSamples: [{ video: { uri: 'https://gw.example/v1beta/files/abc123:download?alt=media', encoding: 'video/mp4' } }],
        },
      },
    });
  });

  it.each([
    ['failed', { code: 'content_policy', message: 'refused' }, 'content_policy', 3],
    ['failed', { code: 'upstream_unavailable', message: 'down' }, 'upstream_unavailable', 14],
    ['failed', null, 'generation_failed', 13],
    ['cancelled', null, 'cancelled', 1],
    ['expired', null, 'expired', 4],
  ] as const)('%s (error %j) → done:true with a google.rpc.Status keeping the code %s', (status, error, code, rpc) => {
    const op = encodeOperation(task({ status, error }), 'https://gw.example');
    expect(op).toEqual({
      name: 'models/sim-video-2.5/operations/abc123',
      done: true,
      error: {
        code: rpc,
        message: expect.any(String),
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: code, domain: 'gateway' }],
      },
    });
  });
});

describe('fileDownloadUri', () => {
  it("keeps PUBLIC_BASE_URL's scheme, host, port and path prefix: http when the gateway is served over http", () => {
    expect(fileDownloadUri('http://localhost:8080/gw', 'x1')).toBe('http://localhost:8080/gw/v1beta/files/x1:download?alt=media');
    expect(fileDownloadUri('https://gw.example/', 'x1')).toBe('https://gw.example/v1beta/files/x1:download?alt=media');
  });
});
