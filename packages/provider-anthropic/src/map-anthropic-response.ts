import { type AssistantContent, type TextResult, droppedContent, type Warning } from '@gateway/provider-kit';

import type { AnthropicMessage } from './anthropic-api';
import { mapAnthropicStopReason, mapAnthropicUsage } from './map-anthropic-stop-reason';

/** Messages API `message` → canonical result. Blocks the canonical model has no place for become warnings. */
export function mapAnthropicMessage(msg: AnthropicMessage, requestedModel: string, requestWarnings: Warning[]): TextResult {
  const warnings = [...requestWarnings];
  const content: AssistantContent[] = [];
  for (const b of msg.content ?? []) {
    if (b.type === 'text') content.push({ type: 'text', text: b.text ?? '' });
    else if (b.type === 'thinking')
      content.push({ type: 'reasoning', text: b.thinking ?? '', ...(b.signature ? { signature: b.signature } : {}) });
    else if (b.type === 'tool_use')
      content.push({ type: 'tool-call', id: b.id ?? '', name: b.name ?? '', arguments: JSON.stringify(b.input ?? {}) });
    else warnings.push(droppedContent(`content.${b.type ?? 'unknown'}`, 'block type has no canonical form; dropped'));
  }
  return {
    id: msg.id,
    model: msg.model ?? requestedModel,
    content,
    finishReason: mapAnthropicStopReason(msg.stop_reason),
    ...(msg.stop_sequence ? { stopSequence: msg.stop_sequence } : {}),
    usage: mapAnthropicUsage(msg.usage),
    warnings,
  };
}
