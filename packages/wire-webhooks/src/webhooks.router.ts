import { Router, type Request, type Response } from 'express';
import type { AuditContext, WebhookEndpoints } from '@gateway/core';
import {
  actorOf,
  compileValidator,
  errorMiddleware,
  jsonBody,
  openAiErrorShape,
  principalOf,
  requireKey,
  type Authenticator,
} from '@gateway/http-kit';
import { encodeDelivery, encodeEndpoint } from './webhooks.object.codec';
import { createEndpointSchema, updateEndpointSchema, type CreateEndpointBody, type UpdateEndpointBody } from './webhooks.request.schema';

export interface WebhooksRouterDeps {
  authenticate: Authenticator;
  webhooks: WebhookEndpoints;
}

export const WEBHOOKS_FORMAT = 'webhooks';
export const WEBHOOKS_BASE = '/v1/webhook_endpoints';

const validateCreate = compileValidator<CreateEndpointBody>(createEndpointSchema, 'invalid_request');
const validateUpdate = compileValidator<UpdateEndpointBody>(updateEndpointSchema, 'invalid_request');

/** Who changes an endpoint (an account admin's key, or a signed-on person) and from where: its audit record's author. */
const changedBy = (req: Request, res: Response): AuditContext => ({
  actor: actorOf(res),
  requestId: (res.locals.requestId as string | undefined) ?? null,
  address: req.socket.remoteAddress ?? null,
});

/** The account's own endpoints, managed with its API key; each change is audited (docs/admin.md, "Audit"). */
export function webhooksRouter(deps: WebhooksRouterDeps): Router {
  const router = Router();
  const auth = requireKey(deps.authenticate);

  router.post(WEBHOOKS_BASE, auth, jsonBody(), async (req, res) => {
    const body = validateCreate(req.body);
    const { endpoint, secret } = await deps.webhooks.create(principalOf(res).accountId, body, changedBy(req, res));
    // the only answer that shows the secret
    res.json({ ...encodeEndpoint(endpoint), secret });
  });

  router.get(WEBHOOKS_BASE, auth, async (_req, res) => {
    const { endpoints, callbackSecret } = await deps.webhooks.list(principalOf(res).accountId);
    res.json({ object: 'list', data: endpoints.map(encodeEndpoint), callback_secret: callbackSecret });
  });

  router.get(`${WEBHOOKS_BASE}/:id`, auth, async (req, res) => {
    res.json(encodeEndpoint(await deps.webhooks.get(principalOf(res).accountId, String(req.params.id))));
  });

  router.patch(`${WEBHOOKS_BASE}/:id`, auth, jsonBody(), async (req, res) => {
    const body = validateUpdate(req.body);
    res.json(encodeEndpoint(await deps.webhooks.update(principalOf(res).accountId, String(req.params.id), body, changedBy(req, res))));
  });

  router.delete(`${WEBHOOKS_BASE}/:id`, auth, async (req, res) => {
    await deps.webhooks.remove(principalOf(res).accountId, String(req.params.id), changedBy(req, res));
    res.json({ object: 'webhook_endpoint.deleted', id: String(req.params.id), deleted: true });
  });

  router.get(`${WEBHOOKS_BASE}/:id/deliveries`, auth, async (req, res) => {
    const list = await deps.webhooks.deliveries(principalOf(res).accountId, String(req.params.id));
    res.json({ object: 'list', data: list.map(encodeDelivery) });
  });

  router.use(errorMiddleware(openAiErrorShape.render));
  return router;
}
