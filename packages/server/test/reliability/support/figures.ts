import { appendFileSync } from 'node:fs';

/**
 * The figures docs/reliability.md reports (faults injected, crashes survived, tasks lost…). Each suite adds its
 * counts; with RELIABILITY_REPORT set (npm run reliability) they are appended there as JSON lines and summed.
 */
export function recordFigure(name: string, value: number): void {
  const file = process.env.RELIABILITY_REPORT;
  if (file) appendFileSync(file, JSON.stringify({ figure: name, value }) + '\n');
}

/** Long runs (npm run reliability) scale the loops; the suite keeps them short. */
export const LONG = process.env.RELIABILITY_LONG === '1';
