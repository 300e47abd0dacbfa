import type { ResponseCacheStore } from '../ports/response-cache-store.port';

/** How long a leader's claim holds: followers on other instances wait at most this long for its entry. */
export const SHARED_CLAIM_MS = 30_000;
/** How often such a follower looks for the entry. */
export const SHARED_POLL_MS = 100;

export interface SharedFlightOptions {
  claimMs?: number;
  pollMs?: number;
  /** the clock the claim's life is read on (the cache's own) */
  now?: () => number;
}

/**
 * Single flight across instances over a shared store's claims (Redis `SET NX PX`): the first call of a key on any
 * instance leads; an identical call on another instance waits for the leader's entry, bounded by the claim's life,
 * then goes upstream itself if none came (the leader failed, kept nothing, or outlived its claim). Within one
 * instance ResponseCache's own single flight already joins identical calls without a round trip.
 */
export class SharedFlight {
  private readonly claimMs: number;
  private readonly pollMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: ResponseCacheStore,
    options: SharedFlightOptions = {},
  ) {
    this.claimMs = options.claimMs ?? SHARED_CLAIM_MS;
    this.pollMs = options.pollMs ?? SHARED_POLL_MS;
    this.now = options.now ?? Date.now;
  }

  /** This call's claim: a token when it leads (or the store has no claims), undefined when another call leads. */
  async claim(key: string): Promise<string | undefined> {
    if (!this.store.claim) return '';
    try {
      return await this.store.claim(key, this.claimMs);
    } catch {
      return '';
    }
  }

  release(key: string, token: string): void {
    if (token) this.store.release?.(key, token).catch(() => undefined); // the claim expires anyway
  }

  /**
   * Waits for the leader's entry: `found` is looked up every poll until it answers, the claim is gone (then one last
   * look), the claim's life has passed, or the caller left. Undefined: no entry came.
   */
  async wait<T>(key: string, found: () => Promise<T | undefined>, signal: AbortSignal): Promise<T | undefined> {
    const deadline = this.now() + this.claimMs;
    while (!signal.aborted && this.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
      const entry = await found();
      if (entry !== undefined) return entry;
      if (!(await this.held(key))) return found();
    }
    return undefined;
  }

  private async held(key: string): Promise<boolean> {
    try {
      return (await this.store.claimed?.(key)) ?? false;
    } catch {
      return false;
    }
  }
}
