import type { Request } from 'express';
import type { Principal } from '@gateway/core';
import type { Schema } from 'ajv';
import type { SchemaDoc } from './route-doc';
import { compileValidator, type SchemaRefusal } from './validate';

/** A route's body as documented: content type → schema. */
export interface BodyDoc {
  required?: boolean;
  content: Readonly<Record<string, SchemaDoc>>;
}

/**
 * A declared body that is also enforced: mountRoutes runs `check` on the parsed body before the handler, which receives
 * the typed result as `ctx.body`. The documented schema and the compiled one are the same object.
 */
export interface RequestBody<B> extends BodyDoc {
  check(raw: unknown, req: Request, ctx: BodyCheckContext): B | Promise<B>;
}

/** What a check may read besides the body: the route's services and the caller (API-key routes). */
export interface BodyCheckContext {
  deps: unknown;
  principal?: Principal;
}

export interface RequestBodyOptions {
  /** the code of a generic refusal (default `invalid_request_body`) */
  code?: string;
  /** a format's own wording of its refusals (compileValidator) */
  refuse?: SchemaRefusal;
  /** reshapes the parsed body before the check: form fields to numbers, nulls to absent members, a stored thread */
  prepare?(raw: unknown, req: Request, ctx: BodyCheckContext): unknown;
  /** other content types the route accepts (a multipart form of the same request); prepare turns them into JSON */
  alternatives?: Readonly<Record<string, SchemaDoc>>;
  required?: boolean;
  /** the schema published when it says more than the check (members a codec or the limits table words itself) */
  documented?: SchemaDoc;
}

/** A JSON body checked against `schema` (compiled once, here), documented under application/json. */
export function jsonRequestBody<B>(schema: SchemaDoc, options: RequestBodyOptions = {}): RequestBody<B> {
  const validate = compileValidator<B>(schema as Schema, options.code, options.refuse);
  const prepare = options.prepare;
  return {
    ...(options.required ? { required: true } : {}),
    content: { 'application/json': options.documented ?? schema, ...options.alternatives },
    check: prepare
      ? (raw, req, ctx) => {
          const prepared = prepare(raw, req, ctx);
          return prepared instanceof Promise ? prepared.then(validate) : validate(prepared);
        }
      : (raw) => validate(raw),
  };
}

/** The route's check outside a route (decoder tests): a JSON body, no services. */
export async function checkBody<B>(body: RequestBody<B>, raw: unknown): Promise<B> {
  const jsonRequest = { is: (type: string) => (type === 'application/json' ? type : false) } as unknown as Request;
  return body.check(raw, jsonRequest, { deps: undefined });
}
