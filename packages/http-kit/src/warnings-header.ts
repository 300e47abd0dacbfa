import type { Response } from 'express';
import { warningsHeader, type CacheStatus, type Warning } from '@gateway/core';
import { sendCacheStatus } from './cache-header';

/** Where a non-streaming answer carries the canonical warnings (what the upstream could not do). */
export const WARNINGS_HEADER = 'x-gateway-warnings';

/** Where warnings become header text, for every format (sanitised and bounded by core's warningsHeader). */
export function sendWarnings(res: Response, warnings: readonly Warning[]): void {
  const text = warningsHeader(warnings);
  if (text) res.setHeader(WARNINGS_HEADER, text);
}

/** A non-streaming answer: its warnings (and what the response cache did) in headers, then its body as JSON. */
export function sendJsonAnswer(res: Response, answer: { warnings: readonly Warning[]; cache?: CacheStatus }, body: unknown): void {
  sendWarnings(res, answer.warnings);
  sendCacheStatus(res, answer.cache);
  res.json(body);
}
