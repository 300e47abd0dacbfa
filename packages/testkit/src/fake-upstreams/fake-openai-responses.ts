import { chunksOf, DEFAULT_USAGE, type FakeReply, type RecordedRequest } from './fake-script';
import { finishOf, lastUserText, type FakeDialect, type FakeRoute } from './fake-dialect';
import { openAiChatDialect } from './fake-openai-chat';

type Json = Record<string, any>;

const INCOMPLETE = { length: 'max_output_tokens', 'content-filter': 'content_filter' } as const;

function usage(reply: FakeReply) {
  const u = reply.usage ?? DEFAULT_USAGE;
  return {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cached ?? 0 },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
    total_tokens: u.input + u.output,
  };
}

/** The output items of a reply; reasoning carries `encrypted_content` only when `include` asked for it, as OpenAI does. */
function outputItems(reply: FakeReply, body: Json): Json[] {
  const sealed = Array.isArray(body?.include) && body.include.includes('reasoning.encrypted_content');
  const items: Json[] = [];
  if (reply.reasoning) {
    items.push({
      id: 'rs_fake0001',
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: reply.reasoning.text }],
      ...(sealed ? { encrypted_content: reply.reasoning.signature ?? 'gAAAAfake-encrypted-reasoning' } : {}),
    });
  }
  if (reply.text !== undefined) {
    items.push({
      id: 'msg_fake0001',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: reply.text, annotations: [], logprobs: [] }],
    });
  }
  (reply.toolCalls ?? []).forEach((c, i) =>
    items.push({
      id: `fc_fake${i}`,
      type: 'function_call',
      status: 'completed',
      call_id: c.id ?? `call_fake${i}`,
      name: c.name,
      arguments: JSON.stringify(c.arguments),
    }),
  );
  return items;
}

/** The response object; request settings are echoed as the real API echoes them. */
function responseObject(reply: FakeReply | undefined, route: FakeRoute, body: Json, output: Json[]): Json {
  const finish = reply ? finishOf(reply) : undefined;
  const incomplete = finish === 'length' || finish === 'content-filter' ? INCOMPLETE[finish] : undefined;
  const status = !reply ? 'in_progress' : incomplete ? 'incomplete' : 'completed';
  return {
    id: 'resp_fake0001',
    object: 'response',
    created_at: 1_700_000_000,
    status,
    background: false,
    error: null,
    incomplete_details: incomplete ? { reason: incomplete } : null,
    instructions: body?.instructions ?? null,
    max_output_tokens: body?.max_output_tokens ?? null,
    model: route.model,
    output,
    parallel_tool_calls: body?.parallel_tool_calls ?? true,
    previous_response_id: body?.previous_response_id ?? null,
    reasoning: body?.reasoning ?? { effort: null, summary: null },
    store: body?.store ?? true,
    temperature: body?.temperature ?? 1,
    text: body?.text ?? { format: { type: 'text' } },
    tool_choice: body?.tool_choice ?? 'auto',
    tools: body?.tools ?? [],
    top_p: body?.top_p ?? 1,
    truncation: body?.truncation ?? 'disabled',
    usage: reply ? usage(reply) : null,
    user: null,
    metadata: body?.metadata ?? {},
  };
}

/** The events OpenAI sends for one output item, between output_item.added and output_item.done. */
function itemEvents(item: Json, index: number): Json[] {
  const at = { item_id: item.id, output_index: index };
  if (item.type === 'reasoning') {
    const text = item.summary[0].text as string;
    return [
      { type: 'response.reasoning_summary_part.added', ...at, summary_index: 0, part: { type: 'summary_text', text: '' } },
      ...chunksOf(text).map((delta) => ({ type: 'response.reasoning_summary_text.delta', ...at, summary_index: 0, delta })),
      { type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text },
      { type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part: { type: 'summary_text', text } },
    ];
  }
  if (item.type === 'message') {
    const text = item.content[0].text as string;
    const part = (t: string) => ({ type: 'output_text', text: t, annotations: [], logprobs: [] });
    return [
      { type: 'response.content_part.added', ...at, content_index: 0, part: part('') },
      ...chunksOf(text).map((delta) => ({ type: 'response.output_text.delta', ...at, content_index: 0, delta, logprobs: [] })),
      { type: 'response.output_text.done', ...at, content_index: 0, text, logprobs: [] },
      { type: 'response.content_part.done', ...at, content_index: 0, part: part(text) },
    ];
  }
  return [
    ...chunksOf(item.arguments, 2).map((delta) => ({ type: 'response.function_call_arguments.delta', ...at, delta })),
    { type: 'response.function_call_arguments.done', ...at, name: item.name, arguments: item.arguments },
  ];
}

/** An item as output_item.added shows it: nothing generated yet. */
function openedItem(item: Json): Json {
  if (item.type === 'message') return { ...item, status: 'in_progress', content: [] };
  if (item.type === 'reasoning') return { ...item, summary: [], encrypted_content: undefined };
  return { ...item, status: 'in_progress', arguments: '' };
}

const frame = (ev: Json) => `event: ${ev.type}\ndata: ${JSON.stringify(ev)}\n\n`;

/** OpenAI's Responses API (`POST /v1/responses`) as api.openai.com speaks it: typed SSE events with sequence numbers. */
export const openAiResponsesDialect: FakeDialect = {
  name: 'openai-responses',
  basePath: '/v1',
  requestIdHeader: 'x-request-id',

  route(method, path, req): FakeRoute | null {
    if (method !== 'POST' || path !== '/v1/responses') return null;
    return { model: String(req.body?.model ?? ''), stream: req.body?.stream === true };
  },

  checkAuth: openAiChatDialect.checkAuth,
  errorBody: openAiChatDialect.errorBody,

  defaultReply(req: RecordedRequest): FakeReply {
    const input = req.body?.input;
    return { text: `fake-openai-responses says: ${typeof input === 'string' ? input : lastUserText(input, 'input_text')}` };
  },

  json(reply, route, req) {
    return responseObject(reply, route, req.body, outputItems(reply, req.body));
  },

  frames(reply, route, req) {
    const items = outputItems(reply, req.body);
    let seq = 0;
    const events: Json[] = [];
    const emit = (ev: Json) => events.push({ ...ev, sequence_number: seq++ });
    const opening = responseObject(undefined, route, req.body, []);
    emit({ type: 'response.created', response: opening });
    emit({ type: 'response.in_progress', response: opening });
    items.forEach((item, index) => {
      emit({ type: 'response.output_item.added', output_index: index, item: openedItem(item) });
      itemEvents(item, index).forEach(emit);
      emit({ type: 'response.output_item.done', output_index: index, item });
    });
    const done = responseObject(reply, route, req.body, items);
    emit({ type: done.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response: done });
    return events.map(frame);
  },

  streamErrorFrame(message) {
    return frame({ type: 'error', code: 'server_error', message, param: null, sequence_number: 99 });
  },
};
