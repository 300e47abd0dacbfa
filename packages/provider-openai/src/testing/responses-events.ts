/**
 * OpenAI Responses stream events as api.openai.com writes them, for tests: the event's name, then its data with
 * `type` and `sequence_number` first; the response object and output items in the API reference's shapes.
 */

/** One event as SSE text. */
export const responsesEvent = (type: string, seq: number, fields: object): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq, ...fields })}\n\n`;

/** The upstream's response object (its own id and dated model), `extra` added last. */
export const upstreamResponse = (status: string, extra: object = {}) => ({
  id: 'resp_upstream01',
  object: 'response',
  created_at: 1_756_000_000,
  status,
  model: 'gpt-5-mini-2025-08-07',
  output: [],
  usage: null,
  ...extra,
});

/** An `output_text` content part. */
export const outputText = (text: string) => ({ type: 'output_text', annotations: [], logprobs: [], text });

/** An assistant `message` output item: no content while it has none yet. */
export const messageItem = (id: string, status: string, text?: string) => ({
  id,
  type: 'message',
  status,
  content: text === undefined ? [] : [outputText(text)],
  role: 'assistant',
});
