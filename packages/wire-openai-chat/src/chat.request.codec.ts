import {
  checkReasoningEffort,
  imagePartFromUrl,
  invalid,
  type Message,
  type ModelSpec,
  type ReasoningEffort,
  type TextRequest,
  type ToolChoice,
  type UserContent,
} from '@gateway/core';
import { decodeModerationParam } from '@gateway/http-kit';
import type { ChatRequestBody } from './chat.request.schema';

type ChatMessage = ChatRequestBody['messages'][number];
type ChatContent = ChatMessage['content'];

function textOf(content: ChatContent): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .filter((p) => p.type === 'text')
      .map((p) => p.text ?? '')
      .join('');
  return '';
}

function userContent(content: ChatContent, at: string): UserContent[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((p, i) => {
    if (p.type === 'text') return { type: 'text', text: String(p.text ?? '') };
    if (p.type === 'image_url') {
      // The schema cannot tie image_url to this type, so its absence is refused here rather than crash.
      if (p.image_url === undefined) throw invalid('missing_field', 'Missing required field "image_url".', `${at}.content[${i}].image_url`);
      return imagePartFromUrl(typeof p.image_url === 'string' ? p.image_url : p.image_url.url);
    }
    throw invalid(
      'unsupported_content_part',
      `Content part type ${JSON.stringify(p.type)} is not supported; use text or image_url.`,
      `${at}.content[${i}].type`,
    );
  });
}

/** The dialect of this format's bodies (native-request.ts). */
const DIALECT = 'openai-chat';

// Fields read into the canonical request; the rest (logit_bias included) are the native body's `unread` fields.
const KNOWN = new Set([
  'model',
  'messages',
  'temperature',
  'top_p',
  'n',
  'stream',
  'stream_options',
  'stop',
  'max_tokens',
  'max_completion_tokens',
  'presence_penalty',
  'frequency_penalty',
  'user',
  'tools',
  'tool_choice',
  'response_format',
  'seed',
  'modalities',
  'audio',
  'reasoning_effort',
  'moderation',
]);

/** Chat completions body (already schema-checked) → canonical TextRequest, with the model's own limits. */
export function decodeChatRequest(body: ChatRequestBody, model: ModelSpec): TextRequest {
  const systems: string[] = [];
  const messages: Message[] = [];
  // Tool results rarely repeat the function name; upstreams such as Gemini need it, so take it from the call.
  const callNames = new Map<string, string>();
  body.messages.forEach((m, i) => {
    const at = `messages[${i}]`;
    switch (m.role) {
      case 'system':
      case 'developer':
        systems.push(textOf(m.content));
        break;
      case 'user':
        messages.push({ role: 'user', content: userContent(m.content, at), ...(m.name ? { name: m.name } : {}) });
        break;
      case 'assistant': {
        const content: Extract<Message, { role: 'assistant' }>['content'] = [];
        if (m.reasoning_content) content.push({ type: 'reasoning', text: m.reasoning_content });
        const text = textOf(m.content);
        if (text) content.push({ type: 'text', text });
        for (const c of m.tool_calls ?? []) {
          content.push({ type: 'tool-call', id: c.id, name: c.function.name, arguments: c.function.arguments });
          callNames.set(c.id, c.function.name);
        }
        messages.push({ role: 'assistant', content });
        break;
      }
      case 'tool':
      case 'function': {
        const part = {
          type: 'tool-result' as const,
          toolCallId: m.tool_call_id ?? m.name ?? '',
          name: m.name ?? callNames.get(m.tool_call_id ?? ''),
          content: [{ type: 'text' as const, text: textOf(m.content) }],
        };
        if (!part.toolCallId) throw invalid('missing_tool_call_id', 'A tool message needs "tool_call_id".', `${at}.tool_call_id`);
        const prev = messages[messages.length - 1];
        if (prev?.role === 'tool') prev.content.push(part);
        else messages.push({ role: 'tool', content: [part] });
        break;
      }
    }
  });

  const effort = body.reasoning_effort;
  if (effort !== undefined && effort !== null) checkReasoningEffort(model, { effort, param: 'reasoning_effort' });
  if (Array.isArray(body.modalities) && body.modalities.includes('audio')) {
    throw invalid('unsupported_modality', `Model ${model.id} produces text only; "modalities" may only contain "text".`, 'modalities');
  }
  if (body.audio && !(Array.isArray(body.modalities) && body.modalities.includes('audio'))) {
    throw invalid('audio_requires_modality', '"audio" requires "modalities" to include "audio".', 'audio');
  }

  let toolChoice: ToolChoice | undefined;
  if (typeof body.tool_choice === 'string') toolChoice = body.tool_choice as ToolChoice;
  else if (body.tool_choice) toolChoice = { type: 'tool', name: body.tool_choice.function.name };
  const tools = body.tools?.map((t) => ({
    name: t.function.name,
    description: t.function.description,
    parameters: (t.function.parameters ?? { type: 'object', properties: {} }) as Record<string, unknown>,
  }));
  if (toolChoice && typeof toolChoice === 'object' && !tools?.some((t) => t.name === toolChoice.name)) {
    throw invalid('unknown_tool', `"tool_choice" names ${JSON.stringify(toolChoice.name)}, which is not among "tools".`, 'tool_choice');
  }
  if (toolChoice === 'required' && !tools?.length)
    throw invalid('tools_required', '"tool_choice" "required" needs at least one tool.', 'tool_choice');

  const rf = body.response_format;

  return {
    model: body.model,
    system: systems.length ? systems.join('\n\n') : undefined,
    messages,
    tools,
    toolChoice,
    maxOutputTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    presencePenalty: body.presence_penalty ?? undefined,
    frequencyPenalty: body.frequency_penalty ?? undefined,
    stopSequences: body.stop == null ? undefined : Array.isArray(body.stop) ? body.stop : [body.stop],
    seed: body.seed ?? undefined,
    n: body.n ?? undefined,
    responseFormat: !rf || rf.type === 'text' ? undefined : { type: 'json', schema: rf.json_schema?.schema, name: rf.json_schema?.name },
    reasoning: effort ? { effort: effort as ReasoningEffort } : undefined,
    user: body.user,
    moderation: decodeModerationParam(body.moderation),
    // a chat upstream sends the unread fields from this body beside the converted ones (convert-to-chat-request.ts)
    native: { dialect: DIALECT, body: body as unknown as Record<string, unknown>, unread: Object.keys(body).filter((k) => !KNOWN.has(k)) },
  };
}
