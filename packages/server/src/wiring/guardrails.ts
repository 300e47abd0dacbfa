import { Guardrails, type Moderation } from '@gateway/core';
import { httpWebhookSender } from '@gateway/wire-webhooks';
import type { WiringContext } from './context';

/**
 * The guardrails text calls run (docs/guardrails.md): the config's set (replaced on reloads), the gateway's
 * moderation model, webhook calls signed with the account's callback secret under the webhook URL rules, a metric
 * per hit and a warn line per block (with the request id, never the matched text).
 */
export function wireGuardrails(ctx: WiringContext, moderation: Moderation): Guardrails {
  // the hosts the config's webhook URLs were checked against when it loaded (config.ts)
  const allowedHosts = ctx.env.webhooks?.allowedHosts ?? ctx.config.mcp.allowedHosts;
  return new Guardrails({
    guardrails: ctx.config.guardrails,
    moderator: moderation.asTextModerator(),
    defaultModerationModel: () => ctx.config.catalogue.all().find((m) => m.kind === 'moderation')?.id,
    webhooks: {
      sender: httpWebhookSender({ allowedHosts }),
      callbackSecret: (accountId) => ctx.stores.webhooks.accountSecret(accountId),
    },
    observer: {
      hit: (hit, call) => {
        ctx.metrics.guardrailHit(hit);
        if (hit.action === 'blocked')
          ctx.logger.warn('guardrail blocked', {
            requestId: call.requestId,
            guardrail: hit.guardrail,
            phase: hit.phase,
            model: call.model,
          });
      },
    },
  });
}
