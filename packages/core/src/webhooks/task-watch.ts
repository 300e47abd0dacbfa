/**
 * Live status: the task at once, then again at every change of status or progress, until it is terminal.
 *
 * Cheap per open stream: all the watchers of one task (of one account) share one channel, which holds the one
 * change-feed subscription, a slow safety-net poll (a hint lost in a reconnect only delays an update) and the
 * one re-read per change; each stream only compares what the channel read with what it last sent.
 *
 * Bounded: at most `limits.perKey` streams of one key, `limits.perAccount` of one account (its keys together, so an
 * account minting keys cannot take the whole instance) and `limits.perInstance` in all are open at once; beyond, the
 * stream is refused before it starts (429 `too_many_event_streams`, in the route's error shape). A stream ends when
 * its key is revoked or expires: one sweep every `keyCheckMs` asks `keyAlive` once per key that has open streams.
 */
import type { Principal } from '../auth';
import { GatewayError } from '../errors';
import type { TaskChangeFeed } from '../ports/task-change-feed.port';
import type { VideoTaskService } from '../use-cases/video-tasks.contract';
import { isTerminal, type VideoTask } from '../video-task';

export interface TaskWatchLimits {
  /** open streams of one key (TASK_EVENTS_MAX_PER_KEY, default 100) */
  perKey: number;
  /** open streams of all the keys of one account (TASK_EVENTS_MAX_PER_ACCOUNT, default 1000) */
  perAccount?: number;
  /** open streams on this instance (TASK_EVENTS_MAX_PER_INSTANCE, default 10 000) */
  perInstance: number;
}

export const DEFAULT_TASK_WATCH_LIMITS: Required<TaskWatchLimits> = Object.freeze({ perKey: 100, perAccount: 1000, perInstance: 10_000 });

export interface TaskWatchDeps {
  videos: Pick<VideoTaskService, 'get'>;
  feed: TaskChangeFeed;
  /** the safety-net re-read while no hint arrives */
  pollMs: number;
  limits?: TaskWatchLimits;
  /** false once the key may no longer be used (revoked, expired, gone); absent: streams are not re-checked */
  keyAlive?: (keyId: string) => Promise<boolean>;
  /** how often the keys of open streams are re-checked (the key cache's TTL) */
  keyCheckMs?: number;
}

export interface TaskWatcher {
  /** Throws not_found before the first snapshot for an unknown (or another account's) id, rate_limited beyond the caps. */
  watch(principal: Principal, id: string, signal: AbortSignal): AsyncGenerator<VideoTask>;
}

/** A read of the task the channel hands to its watchers: the task, or null once it cannot be read (deleted). */
type Reading = VideoTask | null;

interface Channel {
  principal: Principal;
  listeners: Set<(r: Reading) => void>;
  unsubscribe(): void;
  timer?: ReturnType<typeof setTimeout>;
  reading: boolean;
  again: boolean;
}

interface OpenStream {
  keyId: string;
  accountId: string;
  end(): void;
}

export class TaskWatch implements TaskWatcher {
  private readonly channels = new Map<string, Channel>();
  private readonly open = new Set<OpenStream>();
  private readonly perKey = new Map<string, number>();
  private readonly perAccount = new Map<string, number>();
  private sweep?: ReturnType<typeof setInterval>;

  constructor(private readonly deps: TaskWatchDeps) {}

  /** open streams (metrics, tests) */
  get openStreams(): number {
    return this.open.size;
  }

  /** channels, one per watched task (tests: many watchers of one task share one) */
  get openChannels(): number {
    return this.channels.size;
  }

  async *watch(principal: Principal, id: string, signal: AbortSignal): AsyncGenerator<VideoTask> {
    const ended = new AbortController();
    const stream: OpenStream = { keyId: principal.keyId, accountId: principal.accountId, end: () => ended.abort() };
    this.admit(stream);
    let latest: Reading | undefined;
    let wake: (() => void) | undefined;
    const leave = this.join(principal, id, (r) => {
      latest = r;
      wake?.();
    });
    const onAbort = () => wake?.();
    signal.addEventListener('abort', onAbort);
    ended.signal.addEventListener('abort', onAbort);
    const over = () => signal.aborted || ended.signal.aborted;
    try {
      let task = await this.deps.videos.get(principal, id);
      yield task;
      while (!isTerminal(task.status) && !over()) {
        if (latest === undefined) await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        if (over()) return;
        const next = latest;
        latest = undefined;
        if (next === undefined) continue;
        if (next === null) return; // deleted meanwhile: nothing more to say
        if (next.status !== task.status || next.progress !== task.progress) yield next;
        task = next;
      }
    } finally {
      leave();
      signal.removeEventListener('abort', onAbort);
      ended.signal.removeEventListener('abort', onAbort);
      this.release(stream);
    }
  }

  private admit(stream: OpenStream): void {
    const limits = this.deps.limits ?? DEFAULT_TASK_WATCH_LIMITS;
    const mine = this.perKey.get(stream.keyId) ?? 0;
    if (mine >= limits.perKey)
      throw new GatewayError(
        'rate_limited',
        `This API key already has ${mine} live status streams open, the most it may; close one before opening another.`,
        { code: 'too_many_event_streams' },
      );
    const account = this.perAccount.get(stream.accountId) ?? 0;
    if (account >= (limits.perAccount ?? DEFAULT_TASK_WATCH_LIMITS.perAccount))
      throw new GatewayError(
        'rate_limited',
        `This account already has ${account} live status streams open (all its keys together), the most it may; close one before opening another.`,
        { code: 'too_many_event_streams' },
      );
    if (this.open.size >= limits.perInstance)
      throw new GatewayError('rate_limited', 'This gateway instance has as many live status streams open as it may; retry later.', {
        code: 'too_many_event_streams',
        retryAfterSeconds: 5,
      });
    this.perKey.set(stream.keyId, mine + 1);
    this.perAccount.set(stream.accountId, account + 1);
    this.open.add(stream);
    if (this.deps.keyAlive && !this.sweep) {
      this.sweep = setInterval(() => void this.checkKeys(), this.deps.keyCheckMs ?? 2000);
      this.sweep.unref?.();
    }
  }

  private release(stream: OpenStream): void {
    if (!this.open.delete(stream)) return;
    const left = (this.perKey.get(stream.keyId) ?? 1) - 1;
    if (left > 0) this.perKey.set(stream.keyId, left);
    else this.perKey.delete(stream.keyId);
    const accountLeft = (this.perAccount.get(stream.accountId) ?? 1) - 1;
    if (accountLeft > 0) this.perAccount.set(stream.accountId, accountLeft);
    else this.perAccount.delete(stream.accountId);
    if (!this.open.size && this.sweep) {
      clearInterval(this.sweep);
      this.sweep = undefined;
    }
  }

  /** Once per key with open streams: ends the streams of a key that may no longer be used. */
  private async checkKeys(): Promise<void> {
    const keyAlive = this.deps.keyAlive;
    if (!keyAlive) return;
    for (const keyId of [...this.perKey.keys()]) {
      let alive = true;
      try {
        alive = await keyAlive(keyId);
      } catch {
        continue; // the store is down: the key is checked again at the next sweep
      }
      if (!alive) for (const s of [...this.open]) if (s.keyId === keyId) s.end();
    }
  }

  /** Joins the task's channel (opening it on first use); returns the leave. */
  private join(principal: Principal, id: string, listener: (r: Reading) => void): () => void {
    const name = `${principal.accountId}\u0000${id}`;
    let ch = this.channels.get(name);
    if (!ch) {
      const channel: Channel = { principal, listeners: new Set(), unsubscribe: () => undefined, reading: false, again: false };
      channel.unsubscribe = this.deps.feed.subscribe(id, () => void this.read(channel, id));
      this.channels.set(name, channel);
      this.schedule(channel, id);
      ch = channel;
    }
    const channel = ch;
    channel.listeners.add(listener);
    return () => {
      channel.listeners.delete(listener);
      if (channel.listeners.size) return;
      clearTimeout(channel.timer);
      channel.unsubscribe();
      if (this.channels.get(name) === channel) this.channels.delete(name);
    };
  }

  private schedule(channel: Channel, id: string): void {
    clearTimeout(channel.timer);
    channel.timer = setTimeout(() => void this.read(channel, id), this.deps.pollMs);
    (channel.timer as { unref?: () => void }).unref?.();
  }

  /** One read for every watcher of the task; hints during a read cause one more read after it. */
  private async read(channel: Channel, id: string): Promise<void> {
    if (channel.reading) {
      channel.again = true;
      return;
    }
    channel.reading = true;
    try {
      do {
        channel.again = false;
        let r: Reading;
        try {
          r = await this.deps.videos.get(channel.principal, id);
        } catch {
          r = null;
        }
        for (const l of [...channel.listeners]) l(r);
      } while (channel.again && channel.listeners.size);
    } finally {
      channel.reading = false;
      if (channel.listeners.size) this.schedule(channel, id);
    }
  }
}
