import type { RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';

/** Accepts a sane incoming x-request-id, else makes one; echoes it back. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.header('x-request-id');
  const id = incoming && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '')}`;
  res.locals.requestId = id;
  res.setHeader('x-request-id', id);
  next();
};
