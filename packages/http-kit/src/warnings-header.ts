import type { Response } from 'express';
import { warningsHeader, type Warning } from '@gateway/core';

/** Where a non-streaming answer carries the canonical warnings (what the upstream could not do). */
export const WARNINGS_HEADER = 'x-gateway-warnings';

/** Where warnings become header text, for every format (sanitised and bounded by core's warningsHeader). */
export function sendWarnings(res: Response, warnings: readonly Warning[]): void {
  const text = warningsHeader(warnings);
  if (text) res.setHeader(WARNINGS_HEADER, text);
}

/** A non-streaming answer: its warnings in the header, then its body as JSON. */
export function sendJsonAnswer(res: Response, answer: { warnings: readonly Warning[] }, body: unknown): void {
  sendWarnings(res, answer.warnings);
  res.json(body);
}
