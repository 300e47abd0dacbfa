import { ResponsesConversation, TextGeneration } from '@gateway/core';
import { compactionSecret } from './compaction-secret';
import { routedDeps, type AreaWiring, type WiringContext } from './context';

const PURGE_EVERY_MS = 3_600_000;

/** Text: the text use case, the stored responses and the conversation use case the Responses format continues. */
export function wireText(ctx: WiringContext) {
  const responses = ctx.stores.responses;
  const purge = responsesPurge(ctx, responses);
  const text = new TextGeneration({
    ...routedDeps(ctx),
    providers: ctx.providers,
    onSettleFailure: (f) =>
      // not lost: the charge goes with the usage row, which charges it once when written (docs/reliability.md)
      ctx.logger.warn('charge not settled on the request path: it goes with the usage row', {
        requestId: f.requestId,
        account: f.accountId,
        credits: f.credits,
        error: f.error instanceof Error ? f.error.message : String(f.error),
      }),
  });
  ctx.metrics.watchBreakers(() => text.circuitStates());
  return {
    services: {
      text,
      responseStore: responses,
      responsesConversation: new ResponsesConversation({ text, store: responses }),
      compactionSecret: compactionSecret(ctx.env),
      compactionPreviousSecret: ctx.env.previousSecret,
    },
    start: purge.start,
    stop: purge.stop,
  } satisfies AreaWiring;
}

/**
 * Stored responses are kept RESPONSES_RETENTION_DAYS (30, as OpenAI keeps them), then deleted: at start and hourly.
 * Every instance may purge; deleting is idempotent. A response may stay readable up to an hour past its retention.
 */
function responsesPurge(ctx: WiringContext, store: WiringContext['stores']['responses']): Required<Pick<AreaWiring, 'start' | 'stop'>> {
  const days = ctx.env.responsesRetentionDays ?? 30;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= store
      .purgeCreatedBefore(new Date(Date.now() - days * 86_400_000))
      .then(
        (n) => void (n > 0 && ctx.logger.info('stored responses purged', { count: n, retentionDays: days })),
        (e: Error) => void ctx.logger.error('stored responses purge failed', { error: e.message }),
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    start: () => {
      if (!(days > 0) || timer) return;
      timer = setInterval(() => void run(), PURGE_EVERY_MS); // run logs its own failure
      timer.unref();
      void run();
    },
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
