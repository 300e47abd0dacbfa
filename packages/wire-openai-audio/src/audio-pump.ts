import { once } from 'node:events';
import type { Response } from 'express';

/**
 * Binary audio, sent as it is made (chunked): the first chunk is awaited before the 200, so a failure before any
 * byte is still a plain error in the caller's format. A failure after the headers cuts the connection, so a client
 * never takes a truncated file for a whole one. A client that leaves stops the loop (and its signal, the upstream).
 */
export async function pumpAudio(res: Response, mediaType: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  const it = chunks[Symbol.asyncIterator]();
  let step = await it.next();
  res.status(200).setHeader('Content-Type', mediaType);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.flushHeaders();
  try {
    for (; !step.done && !res.destroyed; step = await it.next()) {
      if (step.value.length && !res.write(step.value)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    }
    if (!res.destroyed) res.end();
  } catch {
    res.destroy();
  } finally {
    if (!step.done) await it.return?.();
  }
}
