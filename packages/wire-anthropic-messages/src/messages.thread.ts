import {
  GatewayError,
  invalid,
  type Principal,
  type StoredConversations,
  type StoredTurn,
  type TextRequest,
  type TextResult,
} from '@gateway/core';

/**
 * Server-held threads (`thread: {type: "create" | "continue", previous_message_id}`, beta `message-threads-*`): the
 * SDK's `beta.messages.thread()` and `toolRunner()` send the whole conversation once, then only each new turn. The
 * gateway keeps every answered turn (core's stored conversations, kind `thread`, scoped to the account), so a
 * continued turn reaches any upstream as one ordinary request with its full history, `system` and `tools`.
 */

/** The beta flag of threads: consumed here, never forwarded to an upstream. */
export const THREADS_BETA = /^message-threads-/;

/** Thread errors carry Anthropic's `error.details.error_code`, which the SDK reads to replay or fall back. */
export const THREAD_ERROR_CODES = new Set(['thread_not_found', 'thread_unsupported_request', 'thread_fingerprint_mismatch']);

/** Request fields the thread keeps from its first turn; a continue that repeats them must repeat them unchanged. */
const CREATE_ONLY = ['system', 'tools'] as const;

type Body = Record<string, unknown>;

/** What a kept turn needs: the body it sent in full (without `thread`), and the turn it continued, if any. */
export interface ThreadTurn {
  body: Body;
  previousId: string | null;
}

/** The native history a turn leaves for the next one: what it sent, then its answer. */
interface StoredThread {
  system?: unknown;
  tools?: unknown;
  messages: unknown[];
  message: Record<string, unknown>;
}

const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The thread field of a raw body, when it asks for one (`null` or absent: an ordinary request). */
function threadOf(body: Body): { type?: unknown; previous_message_id?: unknown } | undefined {
  const thread = body.thread;
  if (thread == null) return undefined;
  if (!isObject(thread)) throw invalid('invalid_request_body', '"thread" must be an object.', 'thread');
  return thread;
}

function threadNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No thread state was found for previous_message_id '${id}'.`, {
    code: 'thread_not_found',
    param: 'thread.previous_message_id',
  });
}

/**
 * The raw body as one whole request: a `continue` gets the stored history, `system` and `tools` of the turn it
 * continues; a `create` and an ordinary request stay as they are. `null` when the body asks for no thread. Another
 * account's message id behaves as an unknown one (404 `thread_not_found`, after which the SDK replays the history).
 */
export async function openThread(
  conversations: StoredConversations | undefined,
  principal: Principal,
  raw: unknown,
): Promise<ThreadTurn | null> {
  if (!isObject(raw)) return null;
  const thread = threadOf(raw);
  if (!thread) return null;
  const { thread: _dropped, ...body } = raw;
  if (thread.type !== 'create' && thread.type !== 'continue') {
    throw invalid('invalid_request_body', '"thread.type" must be "create" or "continue".', 'thread.type');
  }
  if (!conversations) {
    throw invalid(
      'thread_unsupported_request',
      'This gateway does not keep message threads; send the full conversation without "thread".',
      'thread',
    );
  }
  if (thread.type === 'create') return { body, previousId: null };
  const id = thread.previous_message_id;
  if (typeof id !== 'string' || id === '') {
    throw invalid('missing_field', 'Missing required field "thread.previous_message_id".', 'thread.previous_message_id');
  }
  const previous = storedThread(await conversations.find(principal, 'thread', id));
  if (!previous) throw threadNotFound(id);
  for (const field of CREATE_ONLY) {
    if (body[field] !== undefined && JSON.stringify(body[field]) !== JSON.stringify(previous[field])) {
      throw invalid(
        'thread_fingerprint_mismatch',
        `"${field}" differs from the one this thread was created with; send it unchanged or start a new thread.`,
        field,
      );
    }
  }
  const newMessages = Array.isArray(body.messages) ? body.messages : [];
  return {
    body: {
      ...body,
      ...(previous.system !== undefined ? { system: previous.system } : {}),
      ...(previous.tools !== undefined ? { tools: previous.tools } : {}),
      messages: [...previous.messages, ...newMessages],
    },
    previousId: id,
  };
}

function storedThread(found: StoredTurn | null): StoredThread | null {
  const doc = found?.document;
  return doc && Array.isArray(doc.messages) ? (doc as unknown as StoredThread) : null;
}

/** Keeps an answered turn under its message id, for the next `continue` to build on. */
export async function keepThreadTurn(
  conversations: StoredConversations,
  principal: Principal,
  turn: ThreadTurn,
  answer: { message: { id: string; content: unknown }; request: TextRequest; result: TextResult; model: string },
): Promise<void> {
  const { message, request } = answer;
  const document: StoredThread = {
    ...(turn.body.system !== undefined ? { system: turn.body.system } : {}),
    ...(turn.body.tools !== undefined ? { tools: turn.body.tools } : {}),
    messages: [...(turn.body.messages as unknown[]), { role: 'assistant', content: message.content }],
    message,
  };
  await conversations.keep(principal, {
    kind: 'thread',
    id: message.id,
    model: answer.model,
    previousId: turn.previousId,
    sent: { system: request.system, messages: request.messages },
    result: answer.result,
    document: document as unknown as Record<string, unknown>,
  });
}

/** `anthropic-beta` without the threads flag, which only this gateway acts on. */
export function withoutThreadsBeta(beta: string | undefined): string | undefined {
  const kept = beta
    ?.split(',')
    .map((b) => b.trim())
    .filter((b) => b && !THREADS_BETA.test(b));
  return kept?.length ? kept.join(',') : undefined;
}
