import {
  HostedMcp,
  type McpGateway,
  type Moderation,
  ResponseCache,
  ResponsesConversation,
  StoredConversations,
  TextGeneration,
} from '@gateway/core';
import { compactionSecret } from './compaction-secret';
import { wireGuardrails } from './guardrails';
import { routedDeps, type AreaWiring, type WiringContext } from './context';

const PURGE_EVERY_MS = 3_600_000;

/**
 * Text: the text use case and the stored conversations that Responses (previous_response_id) and Anthropic threads
 * continue; hosted MCP tools naming a server of `mcp` run in the gateway's own loop.
 */
export function wireText(ctx: WiringContext, moderation: Moderation, mcp: McpGateway) {
  const conversations = new StoredConversations(ctx.stores.responses);
  const purge = conversationsPurge(ctx, conversations);
  const text = new TextGeneration({
    ...routedDeps(ctx),
    providers: ctx.providers,
    moderator: moderation.asTextModerator(),
    guardrails: wireGuardrails(ctx, moderation),
    responseCache: responseCacheOf(ctx),
    hostedMcp: new HostedMcp({ mcp }),
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
      conversations,
      responsesConversation: new ResponsesConversation({ text, conversations }),
      compactionSecret: compactionSecret(ctx.env),
      compactionPreviousSecret: ctx.env.previousSecret,
    },
    start: purge.start,
    stop: purge.stop,
  } satisfies AreaWiring;
}

/** The text response cache over the store (Redis or the database); a failing store is logged, never a key or an answer. */
function responseCacheOf(ctx: WiringContext): ResponseCache | undefined {
  if (!ctx.responseCache) return undefined;
  const { catalogue, usage, billing } = routedDeps(ctx);
  const { store, observer } = ctx.responseCache;
  const onStoreError = (e: unknown) =>
    ctx.logger.warn('response cache store failed: answered without it', { error: e instanceof Error ? e.message : String(e) });
  return new ResponseCache({ store, observer, catalogue, usage, billing, onStoreError });
}

/**
 * Stored turns (responses and thread turns) are kept RESPONSES_RETENTION_DAYS (30, as OpenAI keeps responses), then
 * deleted at start and hourly; every instance may purge (deleting is idempotent), so a turn may stay readable up to an
 * hour past its retention.
 */
function conversationsPurge(ctx: WiringContext, conversations: StoredConversations): Required<Pick<AreaWiring, 'start' | 'stop'>> {
  const days = ctx.env.responsesRetentionDays ?? 30;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= conversations
      .expire(days)
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
