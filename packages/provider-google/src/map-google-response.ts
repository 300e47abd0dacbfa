import { type AssistantContent, type GatewayError, type TextResult, droppedContent, type Warning } from '@gateway/provider-kit';
import { upstreamContentPolicy } from '@gateway/provider-kit';

import type { GoogleResponse } from './google-api';
import { mapGoogleFinishReason, mapGoogleUsage } from './map-google-finish-reason';
import { randomCallId, readGooglePart, type CallIdFactory } from './map-google-parts';

/** A prompt Gemini refused outright has no candidate at all. */
export function blockedPrompt(json: GoogleResponse): GatewayError | undefined {
  const reason = json.promptFeedback?.blockReason;
  if (!json.candidates?.length && reason) {
    return upstreamContentPolicy(`The upstream provider blocked the prompt (${reason}).`, reason);
  }
  return undefined;
}

/** generateContent response → canonical result (first candidate). */
export function mapGoogleResponse(
  json: GoogleResponse,
  requestedModel: string,
  requestWarnings: Warning[],
  newCallId: CallIdFactory = randomCallId,
): TextResult {
  const blocked = blockedPrompt(json);
  if (blocked) throw blocked;
  const warnings = [...requestWarnings];
  const candidate = json.candidates?.[0];
  const content: AssistantContent[] = [];
  for (const part of candidate?.content?.parts ?? []) {
    for (const item of readGooglePart(part, newCallId)) {
      if (item.kind === 'reasoning')
        content.push({ type: 'reasoning', text: item.text, ...(item.signature ? { signature: item.signature } : {}) });
      else if (item.kind === 'text') content.push({ type: 'text', text: item.text });
      else if (item.kind === 'tool-call') content.push({ type: 'tool-call', id: item.id, name: item.name, arguments: item.arguments });
      else warnings.push(droppedContent(`parts.${item.what}`, 'part kind has no canonical form; dropped'));
    }
  }
  const hasToolCalls = content.some((c) => c.type === 'tool-call');
  return {
    id: json.responseId,
    model: json.modelVersion ?? requestedModel,
    content,
    finishReason: mapGoogleFinishReason(candidate?.finishReason, hasToolCalls),
    usage: mapGoogleUsage(json.usageMetadata),
    warnings,
  };
}
