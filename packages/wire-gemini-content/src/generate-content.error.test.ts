import { GatewayError } from '@gateway/core';
import { googleErrorParts, googleErrorShape } from './generate-content.error';

describe("Google's error shape", () => {
  it('carries only Google’s fields: code, message, status and details (ErrorInfo, BadRequest, RetryInfo)', () => {
    const { status, body } = googleErrorShape.render(
      new GatewayError('rate_limited', 'Slow down.', { code: 'rate_limited', param: 'contents', retryAfterSeconds: 7 }),
    );
    expect(status).toBe(429);
    expect(body).toEqual({
      error: {
        code: 429,
        message: 'Slow down.',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'rate_limited', domain: 'gateway' },
          { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'contents', description: 'Slow down.' }] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' },
        ],
      },
    });
    expect(Object.keys((body as { error: object }).error)).not.toContain('type');
    expect(Object.keys((body as { error: object }).error)).not.toContain('param');
    expect(googleErrorParts(body as never)).toEqual({ code: 'rate_limited', param: 'contents' });
  });

  it('names no field when none is at fault', () => {
    const { body } = googleErrorShape.render(new GatewayError('upstream_unavailable', 'Try later.'));
    expect(googleErrorParts(body as never)).toEqual({ code: 'upstream_unavailable', param: undefined });
  });
});
