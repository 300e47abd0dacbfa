import { ImageGeneration, TextGeneration } from '@gateway/core';
import { openAiChatRouter } from '@gateway/wire-openai-chat';
import { anthropicMessagesRouter } from '@gateway/wire-anthropic-messages';
import { geminiGenerateContentRouter } from '@gateway/wire-gemini-content';
import { openAiResponsesRouter } from '@gateway/wire-openai-responses';
import { KnexResponseStore } from '@gateway/store-postgres';
import { compactionSecret } from './compaction-secret';
import type { AreaWiring, WiringContext } from './context';

/** Text formats: chat completions, messages, responses, generateContent. */
export function wireText(ctx: WiringContext): AreaWiring {
  const text = new TextGeneration({ catalogue: ctx.config.catalogue, providers: ctx.providers, usage: ctx.usage, billing: ctx.billing });
  ctx.metrics.watchBreakers(() => text.circuitStates());
  return {
    routers: [
      openAiChatRouter({ authenticate: ctx.authenticate, text }),
      anthropicMessagesRouter({ authenticate: ctx.authenticate, text }),
      geminiGenerateContentRouter({
        authenticate: ctx.authenticate, text, catalogue: ctx.config.catalogue,
        images: new ImageGeneration({ catalogue: ctx.config.catalogue, providers: ctx.providers, usage: ctx.usage, billing: ctx.billing }),
      }),
      openAiResponsesRouter({
        authenticate: ctx.authenticate, text, store: new KnexResponseStore(ctx.knex), usage: ctx.usage, compactionSecret: compactionSecret(ctx.env),
      }),
    ],
  };
}
