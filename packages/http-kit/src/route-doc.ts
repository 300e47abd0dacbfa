/**
 * The documented half of a route declaration (route.ts): the server publishes one OpenAPI document from the same
 * objects mountRoutes mounts. Request schemas are the very objects handed to compileValidator: the document cannot
 * drift from the validators.
 */

import type { BodyDoc } from './request-body';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A JSON Schema (2020-12 compatible) as plain data; `as const` schema objects fit. */
export type SchemaDoc = object;

/**
 * The role an API key needs on a route: `member` (any key of the account) or `admin` (an account admin's key).
 * requireKey enforces it from the declaration, so each route states it once.
 */
export type RouteRole = 'member' | 'admin';

/**
 * Who may call a route. The bearer header always works for `api-key`; some SDKs send another header instead.
 * `session: true`: a dashboard sign-on session of the account may stand in for the key. Only management routes and
 * reads declare it, never a route that calls a model: a session has no key's budget or rate limit.
 */
export type RouteAuth =
  | { kind: 'api-key'; role: RouteRole; alternativeHeaders?: readonly string[]; session?: boolean }
  | { kind: 'admin-key'; optional?: boolean }
  | { kind: 'none'; why: string };

export interface ParamDoc {
  name: string;
  in: 'path' | 'query' | 'header';
  description: string;
  required?: boolean;
  schema?: SchemaDoc;
}

export interface BatchRoute {
  format: 'openai' | 'anthropic' | 'gemini';
  kind: 'text' | 'embedding' | 'moderation';
  headers?: Readonly<Record<string, string>>;
}

export interface RouteDoc {
  method: HttpMethod;
  /** OpenAPI style: `/v1/videos/{id}`; a colon verb stays literal, `/v1beta/models/{model}:generateContent` */
  path: string;
  summary: string;
  description?: string;
  /** the wire format; becomes the OpenAPI tag */
  format: string;
  auth: RouteAuth;
  /** query and header parameters; path parameters are read from `path` unless described here */
  params?: readonly ParamDoc[];
  /** content type → schema; an enforced body (jsonRequestBody) documents the very schema it compiles */
  body?: BodyDoc;
  response: {
    status?: number;
    description: string;
    /** content type → schema; a loose schema is enough: it documents, it does not validate output */
    content: Readonly<Record<string, SchemaDoc>>;
  };
  /** the error body shape(s) by ErrorShape name; several when a header picks the shape */
  errors?: string | readonly string[];
  /**
   * The route takes batch lines (docs/formats/batches.md): of which batch format (OpenAI's `url` of a line,
   * Anthropic's message batches, Gemini's batch mode), serving models of which kind, sent with which headers besides
   * the key. A path parameter (`{model}`) is filled from the line's body field of that name.
   */
  batch?: BatchRoute;
}

/** A required path parameter as /openapi.json describes it. */
export const pathParam = (name: string, description: string): ParamDoc => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

/** A JSON answer's content, by its schema. */
export const jsonContent = (schema: SchemaDoc) => ({ 'application/json': schema });

/** A page of an OpenAI-style cursor list (`GET /v1/videos`, `GET /admin/tasks`): pass `last_id` as `after` while `has_more`. */
export const cursorPage = (items: SchemaDoc): SchemaDoc => ({
  type: 'object',
  required: ['object', 'data', 'has_more'],
  properties: {
    object: { const: 'list' },
    data: { type: 'array', items },
    has_more: { type: 'boolean' },
    first_id: { type: ['string', 'null'] },
    last_id: { type: ['string', 'null'] },
  },
});

/** A file part of a multipart form. */
export const BINARY_FILE: SchemaDoc = { type: 'string', contentMediaType: 'application/octet-stream' };

/** The JSON schema of a body, with the named fields turned into file parts: the multipart form of the same request. */
export function withFileFields(schema: SchemaDoc, files: Readonly<Record<string, SchemaDoc>>): SchemaDoc {
  const s = schema as { properties?: Record<string, unknown> };
  return { ...schema, properties: { ...s.properties, ...files } };
}

/** Sent by retrying clients on the video create routes: the same key returns the first task. */
export const IDEMPOTENCY_KEY_PARAM: ParamDoc = {
  name: 'idempotency-key',
  in: 'header',
  description:
    'Replays the task first created with this key (the response then carries `Idempotent-Replayed: true`) instead of creating another.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
};

/** The answer of a DELETE in OpenAI's style, `{id, object, deleted: true}`, `object` naming what went. */
export function deletionReceipt(object: string): RouteDoc['response'] {
  return {
    description: 'The deletion receipt.',
    content: {
      'application/json': {
        type: 'object',
        required: ['id', 'deleted'],
        properties: { id: { type: 'string' }, object: { const: object }, deleted: { const: true } },
      },
    },
  };
}
