import { GatewayError } from '@gateway/core';
import { checkAnthropicVersion } from './anthropic-version';

describe('checkAnthropicVersion', () => {
  it.each(['2023-06-01', '2026-10-21', ' 2024-02-29 '])('accepts %j', (v) => {
    expect(checkAnthropicVersion(v)).toBe(v.trim());
  });

  it.each([undefined, '', '   '])('refuses a missing header (%j)', (v) => {
    expect(() => checkAnthropicVersion(v)).toThrow(expect.objectContaining({ code: 'missing_version_header', param: 'anthropic-version' }));
  });

  it.each(['2023-6-1', '20230601', 'latest', '2023-13-01', '2023-02-30', '2023-06-01T00:00:00Z'])('refuses the malformed %j', (v) => {
    let caught: unknown;
    try {
      checkAnthropicVersion(v);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    expect(caught).toMatchObject({ reason: 'invalid_request', code: 'invalid_version_header' });
  });
});
