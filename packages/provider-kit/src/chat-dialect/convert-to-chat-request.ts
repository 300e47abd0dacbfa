import { type TextRequest, unsupportedSetting, type Warning } from '@gateway/core';
import { unreadFields } from '../conversion-helpers';
import { moderationParam } from '../in-band-moderation';
import { CHAT_FORMAT, type ChatDialect } from './chat-dialect';
import { convertToChatMessages } from './convert-to-chat-messages';

export interface ConvertedRequest {
  body: Record<string, unknown>;
  warnings: Warning[];
}

/**
 * Canonical TextRequest → chat-completions body for one dialect. Pure. A request written in the chat dialect keeps
 * every field of its own body the canonical request has no place for (sent as written); the fields it does carry
 * are encoded here, because chat servers differ by data (ChatDialect) and the gateway owns `n`, `stream_options`
 * and the token-limit field. Any other request's unread fields become warnings.
 */
export function convertToChatRequest(req: TextRequest, dialect: ChatDialect, stream: boolean): ConvertedRequest {
  const { messages, warnings } = convertToChatMessages(req, dialect);
  const unread = unreadFields(req, CHAT_FORMAT);
  warnings.push(...unread.warnings);
  const body: Record<string, unknown> = { model: req.model, messages };

  if (req.tools?.length) {
    body.tools = req.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.parameters },
    }));
  }
  if (req.toolChoice !== undefined) {
    body.tool_choice = typeof req.toolChoice === 'string' ? req.toolChoice : { type: 'function', function: { name: req.toolChoice.name } };
  }
  if (req.maxOutputTokens !== undefined) body[dialect.maxTokensField] = req.maxOutputTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  if (req.topK !== undefined) {
    if (dialect.supportsTopK) body.top_k = req.topK;
    else warnings.push(unsupportedSetting('topK', 'not supported by the upstream; ignored'));
  }
  if (req.presencePenalty !== undefined) body.presence_penalty = req.presencePenalty;
  if (req.frequencyPenalty !== undefined) body.frequency_penalty = req.frequencyPenalty;
  if (req.stopSequences?.length) body.stop = req.stopSequences;
  if (req.seed !== undefined) body.seed = req.seed;
  if (req.n !== undefined && req.n > 1) warnings.push(unsupportedSetting('n', 'one result per upstream call; extra choices not requested'));
  if (req.user !== undefined) body.user = req.user;
  if (req.moderation && dialect.inBandModeration) body.moderation = moderationParam(req.moderation);
  if (req.responseFormat?.type === 'json') {
    body.response_format = req.responseFormat.schema
      ? { type: 'json_schema', json_schema: { name: req.responseFormat.name ?? 'response', schema: req.responseFormat.schema } }
      : { type: 'json_object' };
  }
  if (req.reasoning) {
    const { effort, budgetTokens } = req.reasoning;
    if (effort !== undefined) {
      if (dialect.supportsReasoningEffort) body.reasoning_effort = effort;
      else warnings.push(unsupportedSetting('reasoning.effort', 'the upstream takes no reasoning effort; not sent'));
    }
    if (budgetTokens !== undefined)
      warnings.push(unsupportedSetting('reasoning.budgetTokens', 'chat completions has no thinking budget; not sent'));
  }
  if (stream) {
    body.stream = true;
    if (dialect.supportsStreamOptions) body.stream_options = { include_usage: true };
  }
  // Computed fields win over the client's unread fields and the operator's extraBody: they carry the canonical meaning.
  return { body: { ...dialect.extraBody, ...unread.fields, ...body }, warnings };
}
