import os from 'node:os';
import { Readable } from 'node:stream';
import type { RequestListener } from 'node:http';
import { BatchRunner, Batches, GatewayError, newId, workerLoop, type BatchEndpoints, type DelegatedKeys, type Files } from '@gateway/core';
import { checkBody, LoopbackCalls, type RequestBody, type Route } from '@gateway/http-kit';
import { WIRE_FORMATS } from '../wire-formats';
import type { AreaWiring, WiringContext } from './context';

const BATCH_ROUTES = WIRE_FORMATS.flatMap((f) => f.routes as readonly Route<never>[]).filter((r) => r.batchKind && r.method === 'post');
/** The routes a batch's lines may call, as their formats declare them (`batchKind`), each with its kind of model. */
const BATCH_ENDPOINTS: BatchEndpoints = Object.fromEntries(BATCH_ROUTES.map((r) => [r.path, r.batchKind!]));

/** A batch line's body checked by its endpoint's own declared body (the route a client would have called). */
async function checkLineBody(endpoint: string, body: Record<string, unknown>): Promise<string | null> {
  const route = BATCH_ROUTES.find((r) => r.path === endpoint);
  const declared = route?.body as RequestBody<unknown> | undefined;
  if (!declared?.check) return null;
  try {
    await checkBody(declared, body);
    return null;
  } catch (e) {
    // a check that needs what only a live request has (a stored conversation) is left to the line's own call
    return e instanceof GatewayError ? e.message : null;
  }
}

/**
 * Batches on the durable engine: the use case behind the batch routes, and the runner that sends each line through
 * the gateway's own route (a private loopback server of the same app) as the key that created the batch, with a
 * delegated credential that exists only in this process for that one call.
 */
export function wireBatches(ctx: WiringContext, files: Files, delegated: DelegatedKeys, app: () => RequestListener) {
  const { env } = ctx;
  const batches = new Batches({ batches: ctx.stores.batches, files, catalogue: ctx.config.catalogue, endpoints: BATCH_ENDPOINTS, checkBody: checkLineBody, now: ctx.clock, windowMs: env.batches?.windowMs });
  const loopback = new LoopbackCalls(app);
  const perAccount = env.batches?.concurrencyPerAccount ?? 8;
  const runner = new BatchRunner(
    {
      batches: ctx.stores.batches,
      files,
      readable: (lines) => Readable.from(lines),
      now: () => ctx.clock().getTime(),
      dispatch: {
        send: async (line, signal) => {
          const token = delegated.issue(line.keyId, line.batchId);
          try {
            return await loopback.post(line.endpoint, token, line.body, signal);
          } finally {
            delegated.release(token);
          }
        },
      },
    },
    { owner: `${os.hostname()}:${process.pid}:${newId('', 4)}`, perAccount, limit: 4 * perAccount, leaseMs: 30_000, lineDelayMs: env.batches?.lineDelayMs ?? 0, backoffMs: 1000 },
  );
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
      await loopback.close();
    },
  } satisfies AreaWiring;
}
