import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Content, type Part } from '@google/genai';
import OpenAI from 'openai';
import { BETA_KEY } from './test-gateway';

/** What a tool round trip returns: the call the client received and the answer after the tool result. */
export interface RoundTrip {
  call: { name: string; args: Record<string, unknown> };
  answer: string;
}

/**
 * One inbound wire format, driven by its official SDK as a user would. Adding a format to the
 * provider matrix is one more entry here.
 */
export interface InboundDriver {
  name: string;
  text(baseUrl: string, model: string, prompt: string, stream: boolean): Promise<string>;
  /** asks for the weather, answers the tool call with `toolResult`, returns the final answer */
  toolRoundTrip(baseUrl: string, model: string, toolResult: string, stream: boolean): Promise<RoundTrip>;
}

export const WEATHER = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const openai = (baseUrl: string) => new OpenAI({ apiKey: BETA_KEY, baseURL: `${baseUrl}/v1`, maxRetries: 0 });

export const openAiChatDriver: InboundDriver = {
  name: 'openai-chat',
  async text(baseUrl, model, prompt, stream) {
    const messages = [{ role: 'user' as const, content: prompt }];
    if (!stream) return (await openai(baseUrl).chat.completions.create({ model, messages })).choices[0]!.message.content ?? '';
    let text = '';
    for await (const c of await openai(baseUrl).chat.completions.create({ model, messages, stream: true }))
      text += c.choices[0]?.delta.content ?? '';
    return text;
  },
  async toolRoundTrip(baseUrl, model, toolResult, stream) {
    const client = openai(baseUrl);
    const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: WEATHER }];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const ask = async () =>
      stream
        ? await client.chat.completions.stream({ model, messages, tools }).finalChatCompletion()
        : await client.chat.completions.create({ model, messages, tools });
    const first = await ask();
    const call = first.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    messages.push({ role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: toolResult });
    const second = await ask();
    return {
      call: { name: call.function.name, args: JSON.parse(call.function.arguments) },
      answer: second.choices[0]!.message.content ?? '',
    };
  },
};

const anthropic = (baseUrl: string) => new Anthropic({ apiKey: BETA_KEY, baseURL: baseUrl, maxRetries: 0 });
const anthropicText = (content: Anthropic.ContentBlock[]) => content.map((b) => (b.type === 'text' ? b.text : '')).join('');

export const anthropicMessagesDriver: InboundDriver = {
  name: 'anthropic-messages',
  async text(baseUrl, model, prompt, stream) {
    const params = { model, max_tokens: 256, messages: [{ role: 'user' as const, content: prompt }] };
    const msg = stream ? await anthropic(baseUrl).messages.stream(params).finalMessage() : await anthropic(baseUrl).messages.create(params);
    return anthropicText(msg.content);
  },
  async toolRoundTrip(baseUrl, model, toolResult, stream) {
    const client = anthropic(baseUrl);
    const tools = [
      { name: WEATHER.name, description: WEATHER.description, input_schema: WEATHER.parameters as Anthropic.Tool.InputSchema },
    ];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const ask = async () =>
      stream
        ? await client.messages.stream({ model, max_tokens: 256, messages, tools }).finalMessage()
        : await client.messages.create({ model, max_tokens: 256, messages, tools });
    const first = await ask();
    const call = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    messages.push(
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: toolResult }] },
    );
    const second = await ask();
    return { call: { name: call.name, args: call.input as Record<string, unknown> }, answer: anthropicText(second.content) };
  },
};

/** Jest's vm context lacks Node's undici dispatcher, which the SDK reaches for unless handed a fetch. */
const genai = (baseUrl: string) => new GoogleGenAI({ apiKey: BETA_KEY, httpOptions: { baseUrl, fetch: (url, init) => fetch(url, init) } });

/** Text of the answer parts, read directly: `response.text` warns on function-call parts. */
const partsText = (parts: Part[]) => parts.map((p) => (typeof p.text === 'string' && !p.thought ? p.text : '')).join('');

async function genaiAsk(baseUrl: string, model: string, contents: Content[] | string, stream: boolean, config?: object) {
  const ai = genai(baseUrl);
  const parts: Part[] = [];
  if (!stream) parts.push(...((await ai.models.generateContent({ model, contents, config })).candidates?.[0]?.content?.parts ?? []));
  else {
    for await (const chunk of await ai.models.generateContentStream({ model, contents, config }))
      parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
  }
  return { text: partsText(parts), parts };
}

export const geminiContentDriver: InboundDriver = {
  name: 'gemini-content',
  async text(baseUrl, model, prompt, stream) {
    return (await genaiAsk(baseUrl, model, prompt, stream)).text;
  },
  async toolRoundTrip(baseUrl, model, toolResult, stream) {
    const config = {
      tools: [
        { functionDeclarations: [{ name: WEATHER.name, description: WEATHER.description, parametersJsonSchema: WEATHER.parameters }] },
      ],
    };
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'What is the weather in Paris?' }] }];
    const first = await genaiAsk(baseUrl, model, contents, stream, config);
    const call = first.parts.find((p) => p.functionCall)!.functionCall!;
    contents.push(
      { role: 'model', parts: first.parts },
      { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: toolResult } } }] },
    );
    const second = await genaiAsk(baseUrl, model, contents, stream, config);
    return { call: { name: call.name ?? '', args: call.args ?? {} }, answer: second.text };
  },
};

export const openAiResponsesDriver: InboundDriver = {
  name: 'openai-responses',
  async text(baseUrl, model, prompt, stream) {
    const client = openai(baseUrl);
    const r = stream
      ? await client.responses.stream({ model, input: prompt }).finalResponse()
      : await client.responses.create({ model, input: prompt });
    return r.output_text;
  },
  async toolRoundTrip(baseUrl, model, toolResult, stream) {
    const client = openai(baseUrl);
    const tools: OpenAI.Responses.FunctionTool[] = [
      { type: 'function', name: WEATHER.name, description: WEATHER.description, parameters: WEATHER.parameters, strict: false },
    ];
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const ask = async () =>
      stream
        ? await client.responses.stream({ model, input, tools }).finalResponse()
        : await client.responses.create({ model, input, tools });
    const first = await ask();
    const call = first.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    input.push(call, { type: 'function_call_output', call_id: call.call_id, output: toolResult });
    const second = await ask();
    return { call: { name: call.name, args: JSON.parse(call.arguments) }, answer: second.output_text };
  },
};
