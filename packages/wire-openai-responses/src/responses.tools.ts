/**
 * Responses tools beyond plain functions, for upstreams that only know functions: `namespace` tools are
 * flattened (`<namespace>__<name>`), `custom` tools (free-form text input) become a function with one
 * string argument `input`, and hosted tools (web_search, file_search, ...) are handed to the core as they
 * were declared (core/hosted-tools.ts: kept for an upstream that runs them, else dropped or refused). Calls come back to the client as it declared them: `namespace` echoed on the
 * function_call, `custom_tool_call` items with their text `input`.
 */
import { invalid, type HostedTool } from '@gateway/core';

type Json = Record<string, any>;

/** OpenAI's hosted tool types (openai 6.x `Tool`): run by OpenAI itself, never by the gateway. */
const HOSTED_TOOLS = new Set([
  'web_search',
  'web_search_2025_08_26',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'file_search',
  'code_interpreter',
  'image_generation',
  'computer',
  'computer_use_preview',
  'mcp',
  'local_shell',
  'shell',
  'apply_patch',
  'tool_search',
]);

interface Declared {
  name: string;
  namespace?: string;
  custom: boolean;
}

export interface ToolNaming {
  /** flattened function name → the tool as the client declared it */
  readonly declared: ReadonlyMap<string, Declared>;
}

const NAMESPACE_SEPARATOR = '__';
const CUSTOM_PARAMETERS = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The free-form input of the tool.' } },
  required: ['input'],
};

const flatName = (name: string, namespace?: string) => (namespace ? `${namespace}${NAMESPACE_SEPARATOR}${name}` : name);

/** `additional_tools` input items add their tools to the request's; the items themselves carry no message. */
export function liftAdditionalTools(body: Json): Json {
  if (!Array.isArray(body.input) || !body.input.some((i: Json) => i?.type === 'additional_tools')) return body;
  const extra = body.input
    .filter((i: Json) => i?.type === 'additional_tools')
    .flatMap((i: Json) => (Array.isArray(i.tools) ? i.tools : []));
  return { ...body, tools: [...(body.tools ?? []), ...extra], input: body.input.filter((i: Json) => i?.type !== 'additional_tools') };
}

/** The tools as functions an upstream understands, and how to name calls back. */
export function flattenTools(tools: Json[] | null | undefined): { tools: Json[] | undefined; hosted: HostedTool[]; naming: ToolNaming } {
  const declared = new Map<string, Declared>();
  const hosted: HostedTool[] = [];
  const out: Json[] = [];
  const add = (t: Json, namespace: string | undefined, at: string) => {
    if (t.type === 'function') {
      out.push({ ...t, name: flatName(t.name, namespace) });
      if (namespace) declared.set(flatName(t.name, namespace), { name: t.name, namespace, custom: false });
    } else if (t.type === 'custom') {
      const description = [
        t.description,
        t.format?.definition ? `Input grammar (${t.format.syntax ?? 'text'}): ${t.format.definition}` : '',
      ]
        .filter(Boolean)
        .join('\n');
      out.push({ type: 'function', name: flatName(t.name, namespace), description, parameters: CUSTOM_PARAMETERS });
      declared.set(flatName(t.name, namespace), { name: t.name, namespace, custom: true });
    } else if (t.type === 'namespace' && Array.isArray(t.tools)) {
      t.tools.forEach((inner: Json, j: number) => add(inner, t.name, `${at}.tools[${j}]`));
    } else if (HOSTED_TOOLS.has(t.type)) hosted.push({ format: 'openai-responses', type: String(t.type), param: at, definition: t });
    else {
      throw invalid(
        'unsupported_tool_type',
        `Tool type ${JSON.stringify(t.type)} is not supported; use function, custom, namespace or a hosted tool type.`,
        `${at}.type`,
      );
    }
  };
  (tools ?? []).forEach((t, i) => add(t, undefined, `tools[${i}]`));
  return { tools: tools ? out : undefined, hosted, naming: { declared } };
}

/** Custom tool calls and namespaced calls in the input, as the flattened function items the decoder reads. */
export function flattenInputItems(input: unknown): unknown {
  if (!Array.isArray(input)) return input;
  return input.map((item: Json) => {
    if (item?.type === 'custom_tool_call') {
      const { input: text, namespace, ...rest } = item;
      return { ...rest, type: 'function_call', name: flatName(item.name, namespace), arguments: JSON.stringify({ input: text ?? '' }) };
    }
    if (item?.type === 'custom_tool_call_output') return { ...item, type: 'function_call_output' };
    if (item?.type === 'function_call' && typeof item.namespace === 'string') {
      const { namespace, ...rest } = item;
      return { ...rest, name: flatName(item.name, namespace) };
    }
    return item;
  });
}

/** One output item as the client declared its tool. */
export function restoreOutputItem(item: Json, naming: ToolNaming): Json {
  if (item?.type !== 'function_call') return item;
  const d = naming.declared.get(item.name);
  if (!d) return item;
  const ns = d.namespace ? { namespace: d.namespace } : {};
  if (!d.custom) return { ...item, name: d.name, ...ns };
  let text = '';
  try {
    text = String(JSON.parse(item.arguments || '{}').input ?? '');
  } catch {
    text = String(item.arguments ?? '');
  }
  const { arguments: _args, ...rest } = item;
  return { ...rest, type: 'custom_tool_call', name: d.name, ...ns, input: text };
}

/** A whole response document with its output items restored. */
export function restoreDocument<T extends object>(doc: T, naming: ToolNaming): T {
  const output = (doc as Json).output;
  if (!naming.declared.size || !Array.isArray(output)) return doc;
  return { ...doc, output: output.map((o: Json) => restoreOutputItem(o, naming)) };
}

/**
 * Stream events with restored items. A custom tool's input arrives as JSON argument deltas that cannot be
 * cut into text pieces, so it is announced once, whole, as `response.custom_tool_call_input.done`.
 */
export class StreamToolRestorer {
  private readonly customItems = new Set<string>();

  constructor(private readonly naming: ToolNaming) {}

  restore<E extends { type: string }>(events: E[]): E[] {
    if (!this.naming.declared.size) return events;
    const out: E[] = [];
    for (const e of events) {
      const ev = e as Json;
      if (ev.item) {
        const item = restoreOutputItem(ev.item, this.naming);
        if (item.type === 'custom_tool_call') this.customItems.add(item.id);
        out.push({ ...e, item });
      } else if (ev.response) out.push({ ...e, response: restoreDocument(ev.response, this.naming) });
      else if (ev.type === 'response.function_call_arguments.delta' && this.customItems.has(ev.item_id)) continue;
      else if (ev.type === 'response.function_call_arguments.done' && this.customItems.has(ev.item_id)) {
        const { arguments: args, ...rest } = ev;
        const input = restoreOutputItem({ type: 'function_call', name: ev.name ?? '', arguments: args }, this.naming).input;
        out.push({ ...rest, type: 'response.custom_tool_call_input.done', input: input ?? '' } as unknown as E);
      } else out.push(e);
    }
    return out;
  }
}
