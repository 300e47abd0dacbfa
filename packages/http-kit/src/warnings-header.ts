import type { Response } from 'express';

/** Where a non-streaming answer carries the canonical warnings (what the upstream could not do). */
export const WARNINGS_HEADER = 'x-gateway-warnings';

/** The one place warnings become header text, for every format. */
export function sendWarnings(res: Response, warnings: readonly string[]): void {
  if (warnings.length) res.setHeader(WARNINGS_HEADER, warnings.join('; '));
}
