import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type RequestHandler } from 'express';

/** Where `npm ci` (the root `prepare` script) or `npm start` builds the dashboard. */
export const DEFAULT_DASHBOARD_DIR = path.resolve(__dirname, '../../dashboard/dist');

/**
 * The dashboard loads only its own bundled files and talks only to this gateway: no inline script or style, no
 * framing. `blob:` media and images are the videos and images the page fetched with the key (an element's `src`
 * cannot send an Authorization header); `data:` images are generated images answered as base64.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  next();
};

/**
 * GET /dashboard: the built single-page app. Files under assets/ are content-hashed (cached for a year); any other
 * path without a file extension is a client route and gets index.html (never cached, so a new build shows at once).
 * Without a build the route answers 503 with how to make one, and the rest of the gateway is unaffected.
 */
export function dashboardRouter(distDir: string = DEFAULT_DASHBOARD_DIR): Router {
  const router = Router();
  const index = path.join(distDir, 'index.html');
  const files = express.static(distDir, {
    index: false,
    redirect: false,
    fallthrough: true,
    setHeaders: (res, file) => {
      res.setHeader('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  router.use('/dashboard', securityHeaders, (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.status(405).setHeader('Allow', 'GET, HEAD').type('text/plain').send('The dashboard is read with GET.\n');
      return;
    }
    if (!existsSync(index)) {
      res
        .status(503)
        .type('text/plain')
        .send('The dashboard is not built. Run `npm ci` (or `npm run build -w @gateway/dashboard`) and reload.\n');
      return;
    }
    // `/dashboard` itself: relative asset URLs need the trailing slash
    if (req.originalUrl === '/dashboard' || req.originalUrl.startsWith('/dashboard?')) return res.redirect(301, '/dashboard/');
    next();
  });
  router.use('/dashboard', files, (req, res) => {
    if (path.extname(req.path)) {
      res.status(404).type('text/plain').send('No such dashboard file.\n');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
