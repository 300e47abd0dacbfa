import { Router } from 'express';
import type { WebhookEndpoints } from '@gateway/core';
import { errorMiddleware, jsonBody, openAiErrorShape } from '@gateway/http-kit';
import { createEndpointSchema, encodeDelivery, encodeEndpoint, updateEndpointSchema } from '@gateway/wire-webhooks';
import { compileValidator } from '@gateway/http-kit';
import { adminContext, requireAdmin } from './admin.router';

const validateCreate = compileValidator<{ url: string; events?: string[] }>(createEndpointSchema, 'invalid_request');
const validateUpdate = compileValidator<{ url?: string; events?: string[] }>(updateEndpointSchema, 'invalid_request');

/**
 * Webhook endpoints of any account, behind the admin key: the same rules as the account API (one use case), with
 * the account named in the path when creating. Endpoint objects carry `account`; secrets are shown only at creation.
 */
export function adminWebhooksRouter(webhooks: WebhookEndpoints, adminKey: string | undefined, localToken?: string): Router {
  const router = Router();
  const guard = requireAdmin(adminKey, localToken);
  const withAccount = (e: Parameters<typeof encodeEndpoint>[0]) => ({ ...encodeEndpoint(e), account: e.accountId });

  router.get('/admin/webhook_endpoints', guard, async (req, res) => {
    const account = typeof req.query.account === 'string' ? req.query.account : undefined;
    const list = account ? (await webhooks.list(account)).endpoints : await webhooks.listAll();
    res.json({ object: 'list', data: list.map(withAccount) });
  });

  router.post('/admin/accounts/:account/webhook_endpoints', guard, jsonBody(), async (req, res) => {
    const { endpoint, secret } = await webhooks.create(String(req.params.account), validateCreate(req.body), adminContext(req, res));
    res.json({ ...withAccount(endpoint), secret });
  });

  router.get('/admin/webhook_endpoints/:id', guard, async (req, res) => {
    res.json(withAccount(await webhooks.get(undefined, String(req.params.id))));
  });

  router.patch('/admin/webhook_endpoints/:id', guard, jsonBody(), async (req, res) => {
    const body = validateUpdate(req.body);
    res.json(withAccount(await webhooks.update(undefined, String(req.params.id), body, adminContext(req, res))));
  });

  router.delete('/admin/webhook_endpoints/:id', guard, async (req, res) => {
    await webhooks.remove(undefined, String(req.params.id), adminContext(req, res));
    res.json({ object: 'webhook_endpoint.deleted', id: String(req.params.id), deleted: true });
  });

  router.get('/admin/webhook_endpoints/:id/deliveries', guard, async (req, res) => {
    res.json({ object: 'list', data: (await webhooks.deliveries(undefined, String(req.params.id))).map(encodeDelivery) });
  });

  // Re-issue a signing secret (one that leaked, or one no secret opens after a GATEWAY_SECRET rotation): admin only.
  router.post('/admin/accounts/:account/webhook_secret', guard, async (req, res) => {
    const account = String(req.params.account);
    res.json({ object: 'webhook_secret', account, callback_secret: await webhooks.reissueAccountSecret(account, adminContext(req, res)) });
  });

  router.post('/admin/webhook_endpoints/:id/secret', guard, async (req, res) => {
    const id = String(req.params.id);
    res.json({ object: 'webhook_secret', id, secret: await webhooks.reissueEndpointSecret(id, adminContext(req, res)) });
  });

  router.use('/admin/webhook_endpoints', errorMiddleware(openAiErrorShape.render));
  router.use('/admin/accounts', errorMiddleware(openAiErrorShape.render));
  return router;
}
