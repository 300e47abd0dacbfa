import { invalid } from '@gateway/core';

/**
 * `anthropic-version` must be present and a real calendar date `YYYY-MM-DD`. Any such date is accepted: the
 * gateway serves one shape, and SDKs pin different dates (`2023-06-01` in 0.x, `2026-10-21` in 1.x).
 */
export function checkAnthropicVersion(header: string | undefined): string {
  if (header === undefined || header.trim() === '') {
    throw invalid('missing_version_header', 'The "anthropic-version" header is required (a date such as 2023-06-01).', 'anthropic-version');
  }
  const value = header.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  const real = date !== undefined && date.toISOString().slice(0, 10) === value;
  if (!real) {
    throw invalid(
      'invalid_version_header',
      `The "anthropic-version" header must be a date of the form YYYY-MM-DD; got ${JSON.stringify(value.slice(0, 40))}.`,
      'anthropic-version',
    );
  }
  return value;
}
