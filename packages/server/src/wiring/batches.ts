import os from 'node:os';
import type { RequestListener } from 'node:http';
import { Readable } from 'node:stream';
import { BatchRunner, Batches, newId, workerLoop, type DelegatedKeys, type Files } from '@gateway/core';
import { batchLineRoutes, loopbackLineDispatch, type Route } from '@gateway/http-kit';
import { WIRE_FORMATS } from '../wire-formats';
import type { AreaWiring, WiringContext } from './context';

/** Batches on the durable engine: the use case behind the batch routes, and the runner that answers their lines. */
export function wireBatches(ctx: WiringContext, files: Files, delegated: DelegatedKeys, app: () => RequestListener) {
  const { env, stores } = ctx;
  const lines = batchLineRoutes(WIRE_FORMATS.flatMap((f) => f.routes as readonly Route<never>[]));
  const batches = new Batches({
    batches: stores.batches,
    files,
    catalogue: ctx.config.catalogue,
    ...lines,
    now: ctx.clock,
    windowMs: env.batches?.windowMs,
  });
  const dispatch = loopbackLineDispatch(app, delegated, lines.headersOf);
  const perAccount = env.batches?.concurrencyPerAccount ?? 8;
  const owner = `${os.hostname()}:${process.pid}:${newId('', 4)}`;
  const runner = new BatchRunner(
    { batches: stores.batches, files, dispatch, readable: (l) => Readable.from(l), now: () => ctx.clock().getTime() },
    { owner, perAccount, limit: 4 * perAccount, leaseMs: 30_000, lineDelayMs: env.batches?.lineDelayMs ?? 0, backoffMs: 1000 },
  );
  const native = ctx.config.file.providers.filter((p) => p.nativeBatch).map((p) => p.id);
  if (native.length)
    ctx.logger.info('nativeBatch: batch lines still run one by one through the routed path in this version', { providers: native });
  const stopping = new AbortController();
  const rounds = async () => {
    while (!stopping.signal.aborted && (await runner.tick(stopping.signal)));
  };
  const loop = workerLoop(rounds, env.batches?.intervalMs ?? 1000, ctx.logger, { what: 'batch rounds' });
  return {
    services: { batches },
    start: () => loop.start(),
    stop: async () => {
      stopping.abort();
      await loop.stop();
      await dispatch.close();
    },
  } satisfies AreaWiring;
}
