import { droppedContent, type Message, nativeRequestFor, type TextRequest, unsupportedSetting, type Warning } from '@gateway/provider-kit';
import { imageUrl, moderationParam, unreadFields } from '@gateway/provider-kit';
import { RESPONSES_FORMAT } from './openai-responses-api';

type Json = Record<string, unknown>;

export interface ConvertedResponsesRequest {
  body: Json;
  warnings: Warning[];
}

/**
 * Canonical messages → Responses input items. Reasoning travels only with its `encrypted_content` (the
 * canonical signature): OpenAI cannot take plain reasoning text back, so a part without one is dropped.
 */
export function convertToResponsesInput(system: string | undefined, messages: Message[], warnings: Warning[]): Json[] {
  const items: Json[] = system ? [{ role: 'developer', content: system }] : [];
  for (const m of messages) {
    if (m.role === 'user') {
      items.push({
        role: 'user',
        content: m.content.map((p) =>
          p.type === 'text' ? { type: 'input_text', text: p.text } : { type: 'input_image', image_url: imageUrl(p) },
        ),
      });
    } else if (m.role === 'assistant') {
      for (const p of m.content) {
        if (p.type === 'text')
          items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: p.text, annotations: [] }] });
        else if (p.type === 'tool-call') items.push({ type: 'function_call', call_id: p.id, name: p.name, arguments: p.arguments });
        else if (p.signature)
          items.push({
            type: 'reasoning',
            summary: p.text ? [{ type: 'summary_text', text: p.text }] : [],
            encrypted_content: p.signature,
          });
        else warnings.push(droppedContent('reasoning', 'reasoning without encrypted_content cannot be sent to the Responses API; dropped'));
      }
    } else {
      for (const r of m.content) {
        const output = r.content.map((c) =>
          c.type === 'text' ? { type: 'input_text', text: c.text } : { type: 'input_image', image_url: imageUrl(c) },
        );
        items.push({
          type: 'function_call_output',
          call_id: r.toolCallId,
          output: output.length === 1 && output[0]?.type === 'input_text' ? output[0].text : output,
        });
      }
    }
  }
  return items;
}

/**
 * A client body of this very format (same-format passthrough): sent as it came, but for the deployment's model
 * name, the stream flag of this call, and history the gateway holds (rendered ahead of the body's own input).
 */
function passthroughBody(req: TextRequest, stream: boolean): ConvertedResponsesRequest | undefined {
  const native = nativeRequestFor(req, RESPONSES_FORMAT);
  if (!native) return undefined;
  const warnings: Warning[] = [];
  const body: Json = { ...native.body, model: req.model };
  // the client's own `stream` field stays as sent unless this call streams otherwise
  if (stream || body.stream !== undefined) body.stream = stream;
  if (native.history) {
    const own =
      body.input === undefined || body.input === null
        ? []
        : typeof body.input === 'string'
          ? [{ role: 'user', content: body.input }]
          : (body.input as Json[]);
    body.input = [...convertToResponsesInput(native.history.system, native.history.messages, warnings), ...own];
  }
  if (!stream) delete body.stream_options;
  return { body, warnings };
}

/** Canonical TextRequest → `POST /responses` body. Pure. */
export function convertToResponsesRequest(req: TextRequest, stream: boolean): ConvertedResponsesRequest {
  const passthrough = passthroughBody(req, stream);
  if (passthrough) return passthrough;

  const warnings: Warning[] = [];
  const unread = unreadFields(req, RESPONSES_FORMAT);
  warnings.push(...unread.warnings);
  const body: Json = {
    model: req.model,
    input: convertToResponsesInput(undefined, req.messages, warnings),
    // The gateway keeps conversations itself; reasoning comes back sealed so the next turn can send it again.
    store: false,
    include: ['reasoning.encrypted_content'],
  };
  if (req.system) body.instructions = req.system;
  const tools: Json[] = (req.tools ?? []).map((t) => ({
    type: 'function',
    name: t.name,
    ...(t.description ? { description: t.description } : {}),
    parameters: t.parameters,
    strict: false,
  }));
  // hosted-tools.ts left only the hosted tools this upstream runs: OpenAI's own, as the client declared them
  for (const h of req.hostedTools ?? []) tools.push(h.definition);
  if (tools.length) body.tools = tools;
  if (req.toolChoice !== undefined)
    body.tool_choice = typeof req.toolChoice === 'string' ? req.toolChoice : { type: 'function', name: req.toolChoice.name };
  if (req.maxOutputTokens !== undefined) body.max_output_tokens = req.maxOutputTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  if (req.user !== undefined) body.user = req.user;
  if (req.moderation) body.moderation = moderationParam(req.moderation);
  if (req.responseFormat?.type === 'json') {
    body.text = {
      format: req.responseFormat.schema
        ? { type: 'json_schema', name: req.responseFormat.name ?? 'response', schema: req.responseFormat.schema }
        : { type: 'json_object' },
    };
  }
  if (req.reasoning) {
    const { effort, budgetTokens, includeThoughts } = req.reasoning;
    const reasoning: Json = {};
    if (effort !== undefined) reasoning.effort = effort;
    if (includeThoughts) reasoning.summary = 'auto';
    if (Object.keys(reasoning).length) body.reasoning = reasoning;
    if (budgetTokens !== undefined)
      warnings.push(unsupportedSetting('reasoning.budgetTokens', 'the Responses API has no thinking budget; not sent'));
  }
  const unsupported: Array<[string, unknown]> = [
    ['topK', req.topK],
    ['presencePenalty', req.presencePenalty],
    ['frequencyPenalty', req.frequencyPenalty],
    ['stopSequences', req.stopSequences?.length ? req.stopSequences : undefined],
    ['seed', req.seed],
  ];
  for (const [name, value] of unsupported)
    if (value !== undefined) warnings.push(unsupportedSetting(name, 'the Responses API has no such setting; not sent'));
  if (req.n !== undefined && req.n > 1) warnings.push(unsupportedSetting('n', 'one result per upstream call; extra choices not requested'));
  if (stream) body.stream = true;
  // Computed fields win over the client's unread fields: they carry the canonical meaning.
  return { body: { ...unread.fields, ...body }, warnings };
}
