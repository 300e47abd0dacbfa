/**
 * The response a WebSocket connection keeps in memory, as OpenAI's WebSocket mode does: a warm-up
 * (`generate: false`) or a response created with `store: false` is stored nowhere, yet the client (Codex) continues
 * it with `previous_response_id` and only the new items. Such a continuation runs as a fresh create with the
 * remembered history (its input, then its output items) put back in front. Stored responses need none of this: the
 * HTTP route loads them.
 */
export class ConnectionMemory {
  private last: { id: string; items: unknown[] } | undefined;

  /** Remembers a response of this connection that was not stored, replacing the previous one. */
  remember(id: string, input: unknown, output: unknown[]): void {
    this.last = { id, items: [...itemsOf(input), ...output] };
  }

  /** A create continuing the remembered response, as a create carrying its history; any other create unchanged. */
  expand(body: Record<string, unknown>): Record<string, unknown> {
    if (!this.last || body.previous_response_id !== this.last.id) return body;
    const { previous_response_id: _remembered, ...rest } = body;
    return { ...rest, input: [...this.last.items, ...itemsOf(body.input)] };
  }
}

/** A create's input as items: a string is one user message. */
function itemsOf(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}
