import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { GatewayError, type VideoContent } from '@gateway/core';
import { openAiErrorShape } from '@gateway/http-kit';
import { parseByteRange } from './byte-range';

/** Streams the MP4 (or thumbnail) with HEAD and single-range support, so players can seek. */
export async function sendVideoContent(req: Request, res: Response, content: VideoContent, filename: string): Promise<void> {
  const range = parseByteRange(req.header('range'), content.size);
  res.setHeader('Accept-Ranges', 'bytes');
  if (range.kind === 'unsatisfiable') {
    // 416 is outside the closed reason table (it is a transport matter), so it is answered here.
    const err = new GatewayError('invalid_request', `The requested range is outside the file (${content.size} bytes).`, {
      code: 'range_not_satisfiable',
      param: 'Range',
    });
    res.status(416).setHeader('Content-Range', `bytes */${content.size}`);
    res.locals.errorCode = err.code;
    res.json(openAiErrorShape.render(err).body);
    return;
  }
  res.setHeader('Content-Type', content.mediaType);
  res.setHeader('Content-Disposition', `inline; filename="${filename}"`);
  const span = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined;
  if (span) {
    res.status(206).setHeader('Content-Range', `bytes ${span.start}-${span.end}/${content.size}`);
    res.setHeader('Content-Length', String(span.end - span.start + 1));
  } else {
    res.status(200).setHeader('Content-Length', String(content.size));
  }
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // Headers are already out: a failing store can only cut the connection.
  await pipeline(content.open(span), res).catch(() => res.destroy());
}
