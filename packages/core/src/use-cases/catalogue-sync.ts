import type { CatalogueEntry, CatalogueEntryKind } from '../ports/catalogue-repository.port';
import { OutageLog } from './outage-log';
import type { WorkerLog } from './video-task-driver';

/** The stored catalogue as a reload reads it: its entries, the settings beside them, a version each change moves. */
export interface CatalogueSource<S> {
  state(): Promise<{ version: number; settings: S | null }>;
  entries(): Promise<CatalogueEntry[]>;
}

/** What the composition root does with entries: build a config (throws naming the field), check one, apply one. */
export interface CatalogueTarget<S, C> {
  build(label: string, entries: CatalogueEntry[], settings: S | null): C;
  /** whether the providers of a candidate can be built */
  check(candidate: C): Promise<void>;
  /** a failure leaves everything as it was */
  apply(next: C): Promise<void>;
}

/**
 * The live catalogue follows the store: every instance reloads when the store's version moves, a change is checked
 * against every other entry before it is stored, and a broken stored config is logged and skipped (start-up: thrown).
 */
export class CatalogueSync<S, C> {
  private version = -1;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    protected readonly source: CatalogueSource<S>,
    private readonly target: CatalogueTarget<S, C>,
    protected readonly log: WorkerLog,
  ) {}

  /** Checks a change against everything else; throws what `build` or `check` throws. */
  async validate(kind: CatalogueEntryKind, id: string, body: Record<string, unknown> | null): Promise<void> {
    const entries = (await this.source.entries()).filter((e) => !(e.kind === kind && e.id === id));
    entries.push({ kind, id, body, source: 'admin' });
    const { settings } = await this.source.state();
    await this.target.check(this.target.build('admin change', entries, settings));
  }

  /** Loads the store's config when its version moved. strict: a broken config throws (start-up) instead of being logged. */
  async reload(opts: { strict?: boolean } = {}): Promise<boolean> {
    const { version, settings } = await this.source.state();
    if (version === this.version) return false;
    const entries = await this.source.entries();
    try {
      await this.target.apply(this.target.build('database catalogue', entries, settings));
      this.version = version;
      return true;
    } catch (e) {
      if (opts.strict) throw e;
      this.log('error', 'config reload failed; keeping the previous config', { error: (e as Error).message, version });
      this.version = version;
      return false;
    }
  }

  start(pollMs: number): void {
    // the store unreachable fails every poll: logged once at warn when it starts and once when a poll succeeds again
    const outage = new OutageLog(this.log, 'config reload');
    this.timer = setInterval(() => {
      this.reload().then(
        () => outage.succeeded(),
        (e) => outage.failed(e, { pollMs }),
      );
    }, pollMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
