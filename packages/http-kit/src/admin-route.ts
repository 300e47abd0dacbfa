import type { Request } from 'express';
import type { AuditContext } from '@gateway/core';
import { routeOf, type AdminContext, type Route } from './route';
import type { ParamDoc, SchemaDoc } from './route-doc';

type AdminKey = { kind: 'admin-key' };

/**
 * A package's /admin route declarations over its own services: the admin key (or the CLI's local token), OpenAI's
 * error shape. Each wire package that owns a resource declares that resource's admin routes with it.
 */
export function adminRouteOf<Deps>() {
  const declare = routeOf<Deps>();
  return <B = unknown, Q = unknown>(r: Omit<Route<Deps, AdminKey, B, Q>, 'format' | 'auth' | 'errors'>) =>
    declare<AdminKey, B, Q>({ ...r, format: 'admin', auth: { kind: 'admin-key' }, errors: 'openai' });
}

/** Who made an admin change, for its audit record: the admin key, the CLI through its local token, or a signed-on person. */
export const changedBy = ({ actor, requestId }: AdminContext<unknown>, req: Request): AuditContext => ({
  actor,
  requestId,
  address: req.ip ?? null,
});

/** A query parameter as /openapi.json describes it. */
export const queryParam = (name: string, description: string, schema: SchemaDoc = { type: 'string' }): ParamDoc => ({
  name,
  in: 'query',
  description,
  schema,
});
