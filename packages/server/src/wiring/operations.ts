import { Router } from 'express';
import { digestsEqual, GatewayError, hashApiKey } from '@gateway/core';
import { extractKey, openAiErrorShape, sendError } from '@gateway/http-kit';
import { serveOpenApi } from '../openapi';
import { publicBaseUrlFor } from '../public-links';
import type { AreaWiring, WiringContext } from './context';

/** What operators and callers use to see what happened: the usage query (for the usage format), /metrics and /openapi.json. */
export function wireOperations(ctx: WiringContext) {
  const metrics = Router();
  metrics.get('/metrics', async (req, res) => {
    const admin = ctx.env.adminKey;
    if (admin && !ctx.env.metricsPublic) {
      const given = extractKey(req);
      // a platform admin's dashboard session (sso/sso-session.ts) reads them as the admin key would
      const signedOn = !given && typeof res.locals.ssoPlatformAdmin === 'string';
      if (!signedOn && (!given || !digestsEqual(hashApiKey(given), hashApiKey(admin)))) {
        return sendError(
          res,
          new GatewayError('unauthenticated', 'The metrics need the admin key.', { code: 'invalid_admin_key' }),
          openAiErrorShape.render,
        );
      }
    }
    let text: string;
    try {
      text = await ctx.metrics.scrape();
    } catch {
      // WORKERS > 1: the cluster's primary did not answer in time
      const busy = new GatewayError('upstream_unavailable', 'The metrics could not be gathered from every worker; retry.', {
        code: 'metrics_unavailable',
      });
      return sendError(res, busy, openAiErrorShape.render);
    }
    res.setHeader('Content-Type', ctx.metrics.registry.contentType);
    res.send(text);
  });
  // The API description is public, like the docs it is generated from.
  metrics.get('/openapi.json', serveOpenApi(publicBaseUrlFor(ctx.env)));
  return { services: { usageQuery: ctx.stores.usageQuery }, routers: [metrics] } satisfies AreaWiring;
}
