import {
  ERROR_REASONS,
  GatewayError,
  type CallContext,
  type ErrorReason,
  type TextModelPort,
  type TextResult,
  type TextStreamPart,
  type VideoModelPort,
  type VideoStatus,
} from '@gateway/core';
import type { AdapterPorts, AdapterTextPort, AdapterVideoPort } from './adapter-contract';
import type { ProviderPorts } from './provider-descriptor';
import { malformedUpstream, truncatedStream } from './upstream-errors';
import { resolveTimeouts, type UpstreamTimeouts } from './upstream-timeouts';
import { videoPortExtras } from './video-port-extras';

/**
 * The ports of an adapter loaded from outside the repository, held to the built-ins' behaviour: the entry's
 * timeouts bound every call (first part, idle gap, total), whatever it throws outside the closed error table and
 * every answer that is not the canonical shape become failures of the upstream, so the gateway's retries, breaker
 * and failover treat it like any failing upstream. The gateway also puts these ports behind the redactor.
 */
export function guardAdapterPorts(ports: AdapterPorts, timeouts: UpstreamTimeouts | undefined): ProviderPorts {
  const t = resolveTimeouts(timeouts);
  return {
    close: () => swallow(() => ports.close()),
    drain: () => swallow(() => ports.drain()),
    ...(ports.text ? { text: guardText(ports.text, t) } : {}),
    ...(ports.video ? { video: guardVideo(ports.video, t) } : {}),
    ...(ports.image ? { image: ports.image } : {}),
  };
}

function swallow(f: () => void): void {
  try {
    f();
  } catch {
    // a failing close of one adapter must not stop the others from closing
  }
}

/** Anything an adapter threw → a GatewayError; a plain object with a closed-table `reason` keeps it. */
export function adapterFailure(e: unknown): GatewayError {
  if (e instanceof GatewayError) return e;
  const reason = (e as { reason?: unknown } | null)?.reason;
  if (typeof reason === 'string' && reason in ERROR_REASONS) {
    const message = (e as { message?: unknown }).message;
    return new GatewayError(reason as ErrorReason, typeof message === 'string' ? message : 'The upstream provider failed.');
  }
  return new GatewayError('upstream_unavailable', 'The upstream adapter failed.', { code: 'adapter_failed' });
}

const timeout = (phase: string) =>
  new GatewayError('upstream_timeout', `The upstream provider did not answer in time (${phase} timeout).`, { code: 'upstream_timeout' });

/** A signal that fires when the caller's does or when the guard gives up. */
function linked(signal: AbortSignal | undefined): AbortController {
  const c = new AbortController();
  if (signal?.aborted) c.abort();
  else signal?.addEventListener('abort', () => c.abort(), { once: true });
  return c;
}

/** `work` bounded by `ms`; on timeout the adapter's signal fires and the call fails as upstream_timeout. */
async function bounded<T>(work: Promise<T>, ms: number, phase: string, c: AbortController): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      c.abort();
      reject(timeout(phase));
    }, ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, expired]);
  } catch (e) {
    throw adapterFailure(e);
  } finally {
    clearTimeout(timer);
  }
}

/** One call of the adapter, bounded by `ms` to its first byte, under a signal linked to the caller's. */
function boundedCall<T>(ms: number, signal: AbortSignal | undefined, run: (signal: AbortSignal) => T | Promise<T>): Promise<T> {
  const c = linked(signal);
  return bounded(
    Promise.resolve().then(() => run(c.signal)),
    ms,
    'first byte',
    c,
  );
}

const FINISH = new Set(['stop', 'length', 'tool-calls', 'content-filter', 'error', 'other']);
const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function usageOf(u: unknown): TextResult['usage'] {
  const usage = u as Record<string, unknown> | null;
  if (!usage || !isCount(usage.inputTokens) || !isCount(usage.outputTokens)) throw malformedUpstream('an answer without token usage');
  const input = usage.inputTokens as number;
  const output = usage.outputTokens as number;
  return {
    ...(usage as object),
    inputTokens: input,
    outputTokens: output,
    totalTokens: isCount(usage.totalTokens) ? (usage.totalTokens as number) : input + output,
  };
}

function contentOk(c: unknown): boolean {
  const p = c as Record<string, unknown> | null;
  if (!p) return false;
  if (p.type === 'text' || p.type === 'reasoning') return typeof p.text === 'string';
  if (p.type === 'tool-call') return typeof p.id === 'string' && typeof p.name === 'string' && typeof p.arguments === 'string';
  return false;
}

function checkResult(r: unknown, model: string): TextResult {
  const x = r as Partial<TextResult> | null;
  if (!x || !Array.isArray(x.content) || !x.content.every(contentOk)) throw malformedUpstream('an answer without canonical content');
  if (typeof x.finishReason !== 'string' || !FINISH.has(x.finishReason)) throw malformedUpstream('an answer without a finish reason');
  return {
    ...x,
    model: typeof x.model === 'string' ? x.model : model,
    content: x.content,
    finishReason: x.finishReason,
    usage: usageOf(x.usage),
    warnings: Array.isArray(x.warnings) ? x.warnings : [],
  };
}

function checkPart(p: unknown): TextStreamPart {
  const x = p as Record<string, unknown> | null;
  switch (x?.type) {
    case 'text-delta':
    case 'reasoning-delta':
      if (typeof x.delta === 'string') return x as unknown as TextStreamPart;
      break;
    case 'tool-call-start':
      if (typeof x.id === 'string' && typeof x.name === 'string' && isCount(x.index)) return x as unknown as TextStreamPart;
      break;
    case 'tool-call-delta':
      if (typeof x.argumentsDelta === 'string' && isCount(x.index)) return x as unknown as TextStreamPart;
      break;
    case 'input-usage':
      return x as unknown as TextStreamPart;
    case 'finish':
      if (typeof x.finishReason === 'string' && FINISH.has(x.finishReason))
        return { ...(x as object), usage: usageOf(x.usage) } as TextStreamPart;
      break;
  }
  throw malformedUpstream('a stream part that is not canonical');
}

type Timeouts = Required<UpstreamTimeouts>;

function guardText(port: AdapterTextPort, t: Timeouts): TextModelPort {
  const countTokens = port.countTokens?.bind(port);
  return {
    generate: async (req, ctx) =>
      checkResult(
        await boundedCall(Math.min(t.totalMs, t.firstByteMs), ctx.signal, (signal) => port.generate(req, { ...ctx, signal })),
        req.model,
      ),
    stream: (req, ctx) => guardStream(port, req, ctx, t),
    ...(countTokens
      ? {
          countTokens: async (req, ctx) => {
            const n = await boundedCall(t.firstByteMs, ctx.signal, (signal) => countTokens(req, { ...ctx, signal }));
            if (!isCount(n)) throw malformedUpstream('a token count that is not a whole number');
            return n;
          },
        }
      : {}),
  };
}

async function* guardStream(
  port: AdapterTextPort,
  req: Parameters<TextModelPort['stream']>[0],
  ctx: CallContext,
  t: Timeouts,
): AsyncGenerator<TextStreamPart> {
  const c = linked(ctx.signal);
  const started = performance.now();
  let it: AsyncIterator<unknown> | undefined;
  let finished = false;
  try {
    const iterator: AsyncIterator<unknown> = await bounded(
      Promise.resolve().then(() => port.stream(req, { ...ctx, signal: c.signal })[Symbol.asyncIterator]()),
      t.firstByteMs,
      'first byte',
      c,
    );
    it = iterator;
    let first = true;
    for (;;) {
      const left = t.totalMs - (performance.now() - started);
      const next = await bounded(
        iterator.next(),
        Math.max(1, Math.min(left, first ? t.firstByteMs : t.idleMs)),
        left <= (first ? t.firstByteMs : t.idleMs) ? 'total' : first ? 'first byte' : 'idle',
        c,
      );
      first = false;
      if (next.done) break;
      if (finished) throw malformedUpstream('a stream part after its finish');
      const part = checkPart(next.value);
      if (part.type === 'finish') finished = true;
      yield part;
    }
    if (!finished) throw truncatedStream('its finish');
  } finally {
    // the consumer left, the stream failed or ended: the adapter lets go of its upstream call
    c.abort();
    // ignored: c.abort() above has ended the call, and the consumer is gone or has its error already
    if (it?.return)
      void Promise.resolve()
        .then(() => it!.return!())
        .catch(() => undefined);
  }
}

function checkStatus(s: unknown): VideoStatus {
  const x = s as Record<string, unknown> | null;
  if (x?.state === 'pending') return x as unknown as VideoStatus;
  if (x?.state === 'failed')
    return {
      state: 'failed',
      code: String(x.code ?? 'upstream_failed'),
      message: String(x.message ?? 'The upstream provider failed the video.'),
    };
  if (x?.state === 'succeeded' && typeof (x.artifact as { open?: unknown } | undefined)?.open === 'function')
    return x as unknown as VideoStatus;
  throw malformedUpstream('a video status that is not canonical');
}

function guardVideo(port: AdapterVideoPort, t: Timeouts): VideoModelPort {
  const cancel = port.cancel?.bind(port);
  return {
    start: async (req, ctx) => {
      const ref = await boundedCall(t.firstByteMs, ctx.signal, (signal) => port.start(req, { ...ctx, signal }));
      if (typeof ref !== 'string' || ref === '') throw malformedUpstream('a video operation without a reference');
      return ref;
    },
    status: async (ref, ctx) => checkStatus(await boundedCall(t.firstByteMs, ctx.signal, (signal) => port.status(ref, { ...ctx, signal }))),
    ...(cancel ? { cancel: (ref) => boundedCall(t.firstByteMs, undefined, () => cancel(ref)) } : {}),
    ...videoPortExtras(port, adapterFailure),
  };
}
