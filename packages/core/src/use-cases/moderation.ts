import type { Principal } from '../auth';
import type { ModelSpec } from '../catalogue';
import { invalid, GatewayError } from '../errors';
import type { ModerationRequest, ModerationResult } from '../moderation';
import type { ModerationModelPort } from '../ports/moderation-model.port';
import { estimateTextTokens } from '../token-estimate';
import type { RoutedCallDeps } from './deployment-selection';
import { MeteredUseCase, meteredAnswer, type KindProviderLookup, type Metered } from './metered-call';
import type { TextModerator } from './text-moderation';
import type { RoutedCallMeta } from './usage-record';

/** Inputs per moderation request, as for embeddings: one answer each. */
export const MODERATION_LIMITS = Object.freeze({ maxItems: 2048 });

export type ModerationCommand = Omit<ModerationRequest, 'model'>;

function metered(r: ModerationRequest, result?: ModerationResult): Metered {
  const upstream = result?.usage?.inputTokens;
  const counted = () =>
    r.items.reduce((n, item) => n + item.reduce((m, p) => m + (p.type === 'text' ? estimateTextTokens(p.text) : 0), 0), 0);
  return meteredAnswer({ inputTokens: upstream ?? counted() }, upstream === undefined, result);
}

/**
 * Moderation: one verdict per input, through a metered call (metered-call.ts) priced by input tokens, which the
 * gateway counts itself when the upstream (OpenAI's included) reports none.
 */
export class Moderation extends MeteredUseCase<ModerationModelPort, ModerationRequest, ModerationResult> {
  constructor(deps: RoutedCallDeps, providers: KindProviderLookup<ModerationModelPort>) {
    super(deps, providers, {
      kind: 'moderation',
      operation: 'moderate',
      call: async (port, request, ctx) => {
        const result = await port.moderate(request, ctx);
        // an upstream that answers short fails the call (502) rather than pairing verdicts with the wrong inputs
        if (result.results.length !== request.items.length)
          throw new GatewayError(
            'upstream_malformed_response',
            `The upstream answered ${result.results.length} results for ${request.items.length} inputs.`,
            {
              code: 'upstream_malformed_response',
            },
          );
        return result;
      },
      measure: (answer, request) => metered(request, answer),
      estimate: (request) => metered(request),
    });
  }

  /** This use case as text calls run their in-band moderation with it (text-moderation.ts): a usage row a call. */
  asTextModerator(): TextModerator {
    return {
      resolve: (principal, modelId) => this.resolve(principal, modelId).id,
      moderate: async (principal, modelId, items, meta) =>
        (await this.moderate(principal, this.resolve(principal, modelId), { items }, meta)).results,
    };
  }

  async moderate(principal: Principal, model: ModelSpec, command: ModerationCommand, meta: RoutedCallMeta): Promise<ModerationResult> {
    if (command.items.length > MODERATION_LIMITS.maxItems)
      throw invalid(
        'too_many_inputs',
        `"input" has ${command.items.length} items; at most ${MODERATION_LIMITS.maxItems} are allowed.`,
        'input',
      );
    return await this.calls.answer(principal, model, { ...command, model: model.id }, meta);
  }
}
