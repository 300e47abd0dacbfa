import type { Schema } from 'ajv';
import type { ParamDoc } from './route-doc';
import { compileValidator, type SchemaRefusal } from './validate';

/**
 * Declared query parameters that are also enforced: mountRoutes runs `check` on the parsed query before the handler,
 * which receives the typed result as `ctx.query`. A route lists the same `params` for its OpenAPI description.
 */
export interface RequestQuery<Q> {
  params: readonly ParamDoc[];
  check(raw: unknown): Q;
}

/** Query parameters checked against their own schemas, compiled once as one object; parameters not declared pass. */
export function queryParams<Q>(params: readonly ParamDoc[], options: { code?: string; refuse?: SchemaRefusal } = {}): RequestQuery<Q> {
  const schema = {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema ?? {}])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
  const validate = compileValidator<Q>(schema as Schema, options.code ?? 'invalid_parameter', options.refuse);
  return { params, check: validate };
}
