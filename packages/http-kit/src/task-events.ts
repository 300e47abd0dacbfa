import type { Response } from 'express';
import { principalOf } from './auth';
import { requestSignal } from './request-abort';
import type { RouteDoc } from './route-doc';
import { SseWriter } from './sse';
import { streamShutdownOf } from './stream-shutdown';

/** What a video format's live-status route needs: core's TaskWatch, seen through its one method. */
export interface TaskEventsSource<T> {
  watch(principal: ReturnType<typeof principalOf>, id: string, signal: AbortSignal): AsyncGenerator<T>;
}

/**
 * `GET …/{id}/events`: the task in the format's shape at once and at every change, ending after the terminal state.
 * The first snapshot is read before anything is committed, so an unknown id is still a plain 404 in the format's
 * error shape; each message is a bare `data:` line holding the object the format's GET of the task answers.
 */
export async function streamTaskEvents<T>(
  res: Response,
  source: TaskEventsSource<T>,
  id: string,
  encode: (task: T) => unknown,
): Promise<void> {
  // Ends with the client, or when the server's grace period ran out (the client reconnects to another instance).
  const shutdown = streamShutdownOf(res);
  const signal = shutdown ? AbortSignal.any([requestSignal(res), shutdown.signal]) : requestSignal(res);
  const events = source.watch(principalOf(res), id, signal);
  const first = await events.next();
  const sse = new SseWriter(res);
  let finished: (() => void) | undefined;
  shutdown?.track(new Promise<void>((resolve) => (finished = resolve)));
  try {
    if (!first.done) await sse.send(encode(first.value));
    for await (const task of events) {
      if (sse.closed) break;
      await sse.send(encode(task));
    }
  } finally {
    await events.return(undefined);
    sse.end();
    finished?.();
  }
}

/** The documented answer of a live-status route; `object` names what each message holds, e.g. "video object". */
export function taskEventsResponse(object: string): RouteDoc['response'] {
  return {
    description: `An event stream of ${object}s.`,
    content: {
      'text/event-stream': {
        type: 'string',
        description: `Messages \`data: <${object}>\`, one at once and one per change of status or progress; the stream ends after the terminal state.`,
      },
    },
  };
}
