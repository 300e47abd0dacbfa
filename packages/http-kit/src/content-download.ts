import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { GatewayError, type VideoContent } from '@gateway/core';
import { parseByteRange } from './byte-range';
import type { ErrorRenderer } from './error-shape';

export interface ContentDownload {
  /** the name offered to a browser or an SDK's save */
  filename: string;
  /** inline lets a player show it; attachment asks to save it */
  disposition: 'inline' | 'attachment';
  /** the calling format's error shape, for the one error answered here (416) */
  renderError: ErrorRenderer;
}

/**
 * Every content download (video, thumbnail) goes through here: HEAD, `Accept-Ranges` and one byte range, so players
 * can seek and interrupted downloads can resume whichever format handed out the link.
 */
export async function sendContent(req: Request, res: Response, content: VideoContent, how: ContentDownload): Promise<void> {
  const range = parseByteRange(req.header('range'), content.size);
  res.setHeader('Accept-Ranges', 'bytes');
  // the type is the one stored with the content: a browser must not guess another (an upstream's bytes are untrusted)
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (range.kind === 'unsatisfiable') {
    // 416 is outside the closed reason table (it is a transport matter), so it is answered here.
    const err = new GatewayError('invalid_request', `The requested range is outside the file (${content.size} bytes).`, {
      code: 'range_not_satisfiable',
      param: 'Range',
    });
    res.status(416).setHeader('Content-Range', `bytes */${content.size}`);
    res.locals.errorCode = err.code;
    res.json(how.renderError(err).body);
    return;
  }
  res.setHeader('Content-Type', content.mediaType);
  res.setHeader('Content-Disposition', `${how.disposition}; filename="${how.filename}"`);
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
