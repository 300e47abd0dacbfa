import { type ReasoningEffort, type TextRequest, type ToolChoice, unsupportedSetting, type Warning } from '@gateway/provider-kit';
import { unreadFields } from '@gateway/provider-kit';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages';

/** The inbound format whose unknown fields may pass through unchanged to this upstream. */
export const ANTHROPIC_FORMAT = 'anthropic-messages';

export interface AnthropicRequestOptions {
  /** max_tokens is required upstream; used when the caller gave no limit */
  defaultMaxTokens: number;
}

/** Thinking budget for a canonical effort. Anthropic's minimum budget is 1024. */
export const EFFORT_BUDGETS: Record<ReasoningEffort, number> = {
  none: 0,
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 24576,
  max: 32000,
};
const MIN_BUDGET = 1024;

function toolChoice(c: ToolChoice): Record<string, unknown> {
  if (c === 'auto') return { type: 'auto' };
  if (c === 'none') return { type: 'none' };
  if (c === 'required') return { type: 'any' };
  return { type: 'tool', name: c.name };
}

/** Canonical TextRequest → Messages API body. Pure. */
export function convertToAnthropicRequest(
  req: TextRequest,
  opts: AnthropicRequestOptions,
  stream: boolean,
): { body: Record<string, unknown>; warnings: Warning[] } {
  const { messages, warnings } = convertToAnthropicMessages(req.messages);
  const unread = unreadFields(req, ANTHROPIC_FORMAT);
  warnings.push(...unread.warnings);
  const body: Record<string, unknown> = { model: req.model, messages };
  let maxTokens = req.maxOutputTokens ?? opts.defaultMaxTokens;
  if (req.system) body.system = req.system;

  const effort = req.reasoning?.effort;
  let budget = req.reasoning?.budgetTokens ?? (effort ? EFFORT_BUDGETS[effort] : 0);
  if (budget > 0) {
    // max_tokens must exceed the budget: grow it when the caller set no limit, shrink the budget otherwise.
    if (req.maxOutputTokens === undefined) {
      if (budget < MIN_BUDGET)
        warnings.push(unsupportedSetting('reasoning.budgetTokens', `raised to Anthropic's minimum of ${MIN_BUDGET}`));
      budget = Math.max(budget, MIN_BUDGET);
      maxTokens = budget + opts.defaultMaxTokens;
    } else if (maxTokens <= budget || maxTokens <= MIN_BUDGET) {
      budget = Math.floor(maxTokens / 2);
      if (budget >= MIN_BUDGET) warnings.push(unsupportedSetting('reasoning.budgetTokens', 'must stay below maxOutputTokens; halved'));
      else {
        budget = 0;
        warnings.push(
          unsupportedSetting(
            'reasoning',
            `maxOutputTokens leaves no room for Anthropic's minimum thinking budget (${MIN_BUDGET}); thinking disabled`,
          ),
        );
      }
    } else if (budget < MIN_BUDGET) {
      warnings.push(unsupportedSetting('reasoning.budgetTokens', `raised to Anthropic's minimum of ${MIN_BUDGET}`));
      budget = MIN_BUDGET;
    }
  }
  const thinking = budget > 0;
  if (thinking) body.thinking = { type: 'enabled', budget_tokens: budget };
  body.max_tokens = maxTokens;

  if (req.temperature !== undefined) {
    if (thinking) warnings.push(unsupportedSetting('temperature', 'not allowed with extended thinking; not sent'));
    else if (req.temperature > 1) {
      warnings.push(unsupportedSetting('temperature', 'Anthropic accepts 0 to 1; clamped to 1'));
      body.temperature = 1;
    } else body.temperature = req.temperature;
  }
  if (req.topP !== undefined) {
    if (thinking && req.topP < 0.95)
      warnings.push(unsupportedSetting('topP', 'below 0.95 is not allowed with extended thinking; not sent'));
    else body.top_p = req.topP;
  }
  if (req.topK !== undefined) {
    if (thinking) warnings.push(unsupportedSetting('topK', 'not allowed with extended thinking; not sent'));
    else body.top_k = req.topK;
  }
  if (req.stopSequences?.length) body.stop_sequences = req.stopSequences;
  if (req.tools?.length) {
    body.tools = req.tools.map((t) => ({
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      input_schema: t.parameters,
    }));
  }
  if (req.toolChoice !== undefined) {
    const forced = req.toolChoice === 'required' || typeof req.toolChoice === 'object';
    if (thinking && forced) {
      warnings.push(unsupportedSetting('toolChoice', 'forcing a tool is not allowed with extended thinking; sent as auto'));
      body.tool_choice = { type: 'auto' };
    } else body.tool_choice = toolChoice(req.toolChoice);
  }
  if (req.user !== undefined) body.metadata = { user_id: req.user };
  if (req.presencePenalty !== undefined) warnings.push(unsupportedSetting('presencePenalty', 'not supported by Anthropic; ignored'));
  if (req.frequencyPenalty !== undefined) warnings.push(unsupportedSetting('frequencyPenalty', 'not supported by Anthropic; ignored'));
  if (req.seed !== undefined) warnings.push(unsupportedSetting('seed', 'not supported by Anthropic; ignored'));
  if (req.n !== undefined && req.n > 1) warnings.push(unsupportedSetting('n', 'one result per upstream call; extra choices not requested'));
  if (req.responseFormat?.type === 'json')
    warnings.push(unsupportedSetting('responseFormat', 'JSON output is not enforced by Anthropic; ask for it in the prompt'));
  if (stream) body.stream = true;
  return { body: { ...unread.fields, ...body }, warnings };
}
