/** What the process holds open, by kind (`process.getActiveResourcesInfo()`: handles and requests that keep it alive). */
export function handleCounts(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) out[kind] = (out[kind] ?? 0) + 1;
  return out;
}

/** The kinds whose count grew from `before` to `after`, with both numbers; empty when nothing grew. */
export function grownHandles(
  before: Record<string, number>,
  after: Record<string, number>,
  kinds = ['TCPSocketWrap', 'TCPServerWrap', 'Timeout', 'PipeWrap', 'ProcessWrap'],
): string[] {
  return kinds.filter((k) => (after[k] ?? 0) > (before[k] ?? 0)).map((k) => `${k}: ${before[k] ?? 0} → ${after[k]}`);
}

/** Collects process warnings (MaxListenersExceededWarning is how a listener leak shows). */
export function watchWarnings(): { seen(): string[]; stop(): void } {
  const seen: string[] = [];
  const onWarning = (w: Error) => seen.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  return { seen: () => seen.filter((s) => !s.startsWith('ExperimentalWarning')), stop: () => void process.off('warning', onWarning) };
}
