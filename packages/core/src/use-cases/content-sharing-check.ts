import { randomBytes } from 'node:crypto';
import type { ContentProbes } from '../ports/content-probes.port';
import type { ContentStore } from '../ports/content-store.port';

/** How often an instance refreshes its probe and re-checks the others'; a probe unrefreshed for 3 rounds is stale. */
const CONTENT_PROBE_INTERVAL_MS = 30_000;

/** Where the check reports a change of verdict: the server's logger fits. */
export interface SharingLogger {
  info(message: string, fields: Record<string, unknown>): void;
  error(message: string, fields: Record<string, unknown>): void;
}

const readAll = async (s: NodeJS.ReadableStream): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const c of s as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString();
};

/**
 * Instances on one database must read each other's content: a download may reach any of them. Each instance writes
 * a probe object to its content store and announces it in the database; each then reads every other live instance's
 * probe through its own store. One it cannot read means the stores are not shared (a local DATA_DIR per host, two
 * buckets): the check says so, /readyz answers 503, and an error is logged once, instead of half the downloads 404.
 */
export class ContentSharingCheck {
  private readonly probeKey: string;
  private readonly token = randomBytes(16).toString('hex');
  private state = 'unchecked';
  private timer?: ReturnType<typeof setTimeout>;
  private running?: Promise<string>;
  private started = false;

  constructor(
    private readonly deps: { probes: ContentProbes; content: ContentStore; location: string; instanceId: string; logger: SharingLogger },
    private readonly intervalMs = CONTENT_PROBE_INTERVAL_MS,
  ) {
    this.probeKey = `probes/${deps.instanceId.replace(/[^a-z0-9._-]/gi, '-')}.txt`;
  }

  /** ok, or why this instance cannot serve the others' content (what /readyz shows as content_store) */
  get status(): string {
    return this.state;
  }

  /** Writes and announces the probe, then checks the others'. Never throws: a failure becomes the status. */
  run(): Promise<string> {
    this.running ??= this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  private async round(): Promise<string> {
    const { probes, content, location, instanceId } = this.deps;
    let next: string;
    try {
      // rewritten every round: the content store's retention sweep must never find it old
      await content.put(this.probeKey, Buffer.from(this.token));
      await probes.announce({ instanceId, store: location, probeKey: this.probeKey, token: this.token });
      const unreadable: string[] = [];
      for (const other of await probes.others(instanceId, 3 * this.intervalMs)) {
        const found = await content
          .stat(other.probeKey)
          .then((s) => (s ? readAll(content.open(other.probeKey)) : null))
          .catch(() => null);
        if (found !== other.token) unreadable.push(`${other.instanceId} (content at ${other.store})`);
      }
      next = unreadable.length
        ? `not_shared: cannot read the content of ${unreadable.join(', ')}; this instance keeps it at ${location}. Use CONTENT_STORE=postgres or s3://... (or one shared DATA_DIR)`
        : 'ok';
    } catch (e) {
      next = `unavailable: ${(e as Error).message}`;
    }
    if (next !== this.state) {
      if (next === 'ok') this.deps.logger.info('content store shared with every instance', { store: location });
      else this.deps.logger.error('content store is not shared by the instances on this database', { store: location, problem: next });
    }
    this.state = next;
    return next;
  }

  /**
   * Keeps the probe fresh and the verdict current (instances starting later are seen within one interval). While the
   * store or the database cannot be reached it retries every second, so /readyz recovers as soon as they return.
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    const next = () => {
      const delay = this.state.startsWith('unavailable') ? Math.min(1000, this.intervalMs) : this.intervalMs;
      this.timer = setTimeout(() => void this.run().finally(() => this.started && next()), delay);
      // the check never keeps the process alive
      (this.timer as { unref?: () => void }).unref?.();
    };
    next();
  }

  /** Withdraws the probe, so the remaining instances stop looking for it. */
  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    await this.running;
    // ignored at shutdown: a probe left behind goes stale after three intervals and the others stop reading it
    await this.deps.probes.withdraw(this.deps.instanceId).catch(() => undefined);
    await this.deps.content.delete(this.probeKey).catch(() => undefined);
  }
}
