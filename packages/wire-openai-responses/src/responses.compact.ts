import type { Response } from 'express';
import { estimateInputTokens, invalid, newId, type ResponsesConversation, type TextGeneration, type UsageLog } from '@gateway/core';
import type { KeyedContext } from '@gateway/http-kit';
import type { CompactionSealer } from './compaction.seal';
import { compactConversation, expandCompaction, isCompactedConversation } from './compaction.summary';
import { decodeInput, type CompactionOpener } from './responses.input.codec';
import { encodeResponsesUsage } from './responses.output.codec';
import type { CompactRequestBody } from './responses.request.schema';

/** Opens compaction items for one account; anything that does not open is the caller's error. */
export function compactionOpener(sealer: CompactionSealer, accountId: string): CompactionOpener {
  return (token, param) => {
    const payload = sealer.open(token, accountId);
    if (!isCompactedConversation(payload)) {
      throw invalid(
        'invalid_encrypted_content',
        'The compaction item cannot be read: it was altered, or it was not issued to this account by this gateway.',
        param,
      );
    }
    return expandCompaction(payload);
  };
}

export interface CompactDeps {
  text: TextGeneration;
  conversations: Pick<ResponsesConversation, 'previous'>;
  usage: UsageLog;
  sealer: CompactionSealer;
}

/**
 * `POST /v1/responses/compact`: the whole history (previous response + input) becomes one sealed
 * compaction item. The gateway compacts by rule, without a model call, so the result is the same for
 * every upstream; token counts are estimates. The result itself is not stored.
 */
export async function compact(
  { deps, principal, requestId, body }: KeyedContext<CompactDeps> & { body: CompactRequestBody },
  res: Response,
): Promise<void> {
  const started = Date.now();
  const model = deps.text.resolve(principal, body.model);
  const previous = await deps.conversations.previous(principal, body.previous_response_id ?? null);
  const open = compactionOpener(deps.sealer, principal.accountId);
  const input = decodeInput(body.input, open, previous?.conversation.messages);
  const system = [previous?.conversation.system, ...input.system].filter((s): s is string => !!s).join('\n\n');
  const messages = [...(previous?.conversation.messages ?? []), ...input.messages];
  if (!messages.length) throw invalid('missing_input', 'Give "input" or a "previous_response_id" to compact.', 'input');

  const compacted = compactConversation({ ...(system ? { system } : {}), messages });
  const expanded = expandCompaction(compacted);
  // Compaction calls no model: both counts are the core's estimate (docs/formats/anthropic-messages.md).
  const inputTokens = estimateInputTokens({ system: [body.instructions, system].filter(Boolean).join('\n\n'), messages });
  const outputTokens = estimateInputTokens(expanded);
  deps.usage.record({
    requestId,
    accountId: principal.accountId,
    keyId: principal.keyId,
    model: model.id,
    format: 'openai-responses-compact',
    status: 'ok',
    httpStatus: 200,
    inputTokens,
    outputTokens,
    latencyMs: Date.now() - started,
    provider: null,
    attempts: 0,
  });
  res.json({
    id: `resp_${newId('', 12)}`,
    object: 'response.compaction',
    created_at: Math.floor(started / 1000),
    output: [{ type: 'compaction', id: `cmp_${newId('', 12)}`, encrypted_content: deps.sealer.seal(compacted, principal.accountId) }],
    usage: encodeResponsesUsage({ inputTokens, outputTokens, totalTokens: inputTokens + outputTokens }),
    error: null,
  });
}
