import type { Request, RequestHandler, Response } from 'express';
import type { Principal } from '@gateway/core';

export type Authenticator = (rawKey: string | undefined) => Promise<Principal>;

/** The bearer token, or one of the alternative headers a format's SDK sends. */
export function extractKey(req: Request, alternativeHeaders: readonly string[] = []): string | undefined {
  const auth = req.header('authorization');
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    return m ? m[1].trim() : auth.trim();
  }
  for (const h of alternativeHeaders) {
    const v = req.header(h);
    if (v) return v.trim();
  }
  // Google's own style next to its header: `?key=` (@ai-sdk/google appends it to download links)
  if (alternativeHeaders.includes('x-goog-api-key') && typeof req.query?.key === 'string' && req.query.key) return req.query.key.trim();
  return undefined;
}

/** Sets res.locals.principal; failures go to the router's error middleware. */
export function requireKey(authenticate: Authenticator, alternativeHeaders: readonly string[] = []): RequestHandler {
  return (req, res, next) => {
    authenticate(extractKey(req, alternativeHeaders)).then((p) => {
      res.locals.principal = p;
      next();
    }, next);
  };
}

export function principalOf(res: Response): Principal {
  return res.locals.principal as Principal;
}
