import type { GatewayError, TextStreamPart, Usage } from '@gateway/core';
import { mcpItemEvents, mcpOutputItem } from './responses.mcp';
import { functionCallItem, messageItem, newItemId, outputText, reasoningItem, type ItemStatus } from './responses.output.codec';
import { encodeResponse, statusOf, type ResponseHeader, type ResponseState } from './responses.response.codec';

export interface ResponseEvent {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}

type Run = { kind: 'msg' | 'rs'; id: string; index: number; text: string; signature?: string };
type Call = { id: string; index: number; callId: string; name: string; arguments: string };

/**
 * Canonical stream parts → responses stream events, in the order the SDK's `responses.stream()` helper
 * accumulates them: created, in_progress, then per item output_item.added → content_part.added → deltas →
 * *.done → content_part.done → output_item.done, and a terminal event. Text and reasoning runs close when
 * another kind of output starts; function calls close at the end, so interleaved argument deltas still
 * reach their own item.
 */
export class ResponseEventEncoder {
  private seq = 0;
  private readonly items: object[] = [];
  private run: Run | undefined;
  private readonly calls = new Map<number, Call>();
  private finished: (Pick<ResponseState, 'status' | 'incompleteReason' | 'moderation'> & { usage: Usage }) | undefined;

  constructor(
    private readonly header: ResponseHeader,
    private readonly summary: boolean,
  ) {}

  private ev(type: string, fields: Record<string, unknown> = {}): ResponseEvent {
    return { type, ...fields, sequence_number: this.seq++ };
  }

  private snapshot(state: Omit<ResponseState, 'output'>) {
    return encodeResponse(this.header, { ...state, output: this.items.filter(Boolean) });
  }

  start(): ResponseEvent[] {
    const response = this.snapshot({ status: 'in_progress' });
    return [this.ev('response.created', { response }), this.ev('response.in_progress', { response })];
  }

  private openRun(kind: Run['kind'], out: ResponseEvent[]): Run {
    if (this.run?.kind === kind) return this.run;
    this.closeRun('completed', out);
    const run: Run = { kind, id: newItemId(kind, this.header.id), index: this.items.length, text: '' };
    this.items.push(undefined as unknown as object); // reserve the output index
    const item =
      kind === 'msg' ? messageItem(run.id, '', 'in_progress') : reasoningItem(run.id, '', { summary: false, status: 'in_progress' });
    const part = kind === 'msg' ? outputText('') : { type: 'reasoning_text', text: '' };
    out.push(this.ev('response.output_item.added', { output_index: run.index, item }));
    out.push(this.ev('response.content_part.added', { item_id: run.id, output_index: run.index, content_index: 0, part }));
    this.run = run;
    return run;
  }

  private closeRun(status: ItemStatus, out: ResponseEvent[]): void {
    const r = this.run;
    if (!r) return;
    this.run = undefined;
    const at = { item_id: r.id, output_index: r.index };
    let item: object;
    if (r.kind === 'msg') {
      out.push(this.ev('response.output_text.done', { ...at, content_index: 0, text: r.text, logprobs: [] }));
      out.push(this.ev('response.content_part.done', { ...at, content_index: 0, part: outputText(r.text) }));
      item = messageItem(r.id, r.text, status);
    } else {
      out.push(this.ev('response.reasoning_text.done', { ...at, content_index: 0, text: r.text }));
      out.push(this.ev('response.content_part.done', { ...at, content_index: 0, part: { type: 'reasoning_text', text: r.text } }));
      if (this.summary) {
        out.push(this.ev('response.reasoning_summary_part.added', { ...at, summary_index: 0, part: { type: 'summary_text', text: '' } }));
        out.push(this.ev('response.reasoning_summary_text.delta', { ...at, summary_index: 0, delta: r.text }));
        out.push(this.ev('response.reasoning_summary_text.done', { ...at, summary_index: 0, text: r.text }));
        out.push(
          this.ev('response.reasoning_summary_part.done', { ...at, summary_index: 0, part: { type: 'summary_text', text: r.text } }),
        );
      }
      item = reasoningItem(r.id, r.text, { signature: r.signature, summary: this.summary, status });
    }
    this.items[r.index] = item;
    out.push(this.ev('response.output_item.done', { output_index: r.index, item }));
  }

  private closeCalls(status: ItemStatus, out: ResponseEvent[]): void {
    for (const c of [...this.calls.values()].sort((a, b) => a.index - b.index)) {
      out.push(
        this.ev('response.function_call_arguments.done', { item_id: c.id, output_index: c.index, name: c.name, arguments: c.arguments }),
      );
      const item = functionCallItem(c.id, { id: c.callId, name: c.name, arguments: c.arguments }, status);
      this.items[c.index] = item;
      out.push(this.ev('response.output_item.done', { output_index: c.index, item }));
    }
    this.calls.clear();
  }

  /** Events for one canonical part; `finish` closes every open item but leaves the terminal event to complete(). */
  encode(part: TextStreamPart): ResponseEvent[] {
    const out: ResponseEvent[] = [];
    switch (part.type) {
      case 'text-delta': {
        if (!part.delta) break;
        const r = this.openRun('msg', out);
        r.text += part.delta;
        out.push(
          this.ev('response.output_text.delta', {
            item_id: r.id,
            output_index: r.index,
            content_index: 0,
            delta: part.delta,
            logprobs: [],
          }),
        );
        break;
      }
      case 'reasoning-delta': {
        // A bare signature belongs to the reasoning run it ends; with none open there is nothing to sign.
        if (!part.delta && this.run?.kind !== 'rs') break;
        const r = this.openRun('rs', out);
        if (part.signature) r.signature = part.signature;
        if (!part.delta) break;
        r.text += part.delta;
        out.push(this.ev('response.reasoning_text.delta', { item_id: r.id, output_index: r.index, content_index: 0, delta: part.delta }));
        break;
      }
      case 'tool-call-start': {
        this.closeRun('completed', out);
        const call: Call = {
          id: newItemId('fc', this.header.id),
          index: this.items.length,
          callId: part.id,
          name: part.name,
          arguments: '',
        };
        this.items.push(undefined as unknown as object);
        this.calls.set(part.index, call);
        out.push(
          this.ev('response.output_item.added', {
            output_index: call.index,
            item: functionCallItem(call.id, { id: call.callId, name: call.name, arguments: '' }, 'in_progress'),
          }),
        );
        break;
      }
      case 'tool-call-delta': {
        const c = this.calls.get(part.index);
        if (!c || !part.argumentsDelta) break;
        c.arguments += part.argumentsDelta;
        out.push(this.ev('response.function_call_arguments.delta', { item_id: c.id, output_index: c.index, delta: part.argumentsDelta }));
        break;
      }
      case 'hosted-mcp': {
        // a step of the gateway's MCP loop between model rounds: the text so far is one message item, done
        this.closeRun('completed', out);
        const at = this.items.length;
        this.items.push(mcpOutputItem(part.item));
        for (const { type, ...fields } of mcpItemEvents(part.item, at)) out.push(this.ev(type, fields));
        break;
      }
      case 'finish': {
        const st = statusOf(part.finishReason);
        const itemStatus: ItemStatus = st.status === 'incomplete' ? 'incomplete' : 'completed';
        this.closeRun(itemStatus, out);
        this.closeCalls(itemStatus, out);
        this.finished = { ...st, usage: part.usage, moderation: part.moderation };
        break;
      }
    }
    return out;
  }

  /** The final response object (what GET returns), once `finish` was encoded. */
  get document() {
    return this.finished ? this.snapshot(this.finished) : undefined;
  }

  /** response.completed, or response.incomplete when generation was cut short. */
  complete(document: object): ResponseEvent[] {
    const type = this.finished?.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
    return [this.ev(type, { response: document })];
  }

  /** A failure after the stream began: an `error` event, then response.failed. */
  fail(err: GatewayError): ResponseEvent[] {
    return [
      this.ev('error', { code: err.code, message: err.message, param: err.param ?? null }),
      this.ev('response.failed', { response: this.snapshot({ status: 'failed', error: { code: err.code, message: err.message } }) }),
    ];
  }
}
