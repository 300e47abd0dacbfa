import type { GatewayError } from '@gateway/core';
import type { SchemaDoc } from './route-doc';

export interface RenderedError {
  status: number;
  body: unknown;
}

/** How one wire format shows a GatewayError. */
export type ErrorRenderer = (err: GatewayError) => RenderedError;

/**
 * An error body shape: its renderer, and the JSON schema the OpenAPI document publishes for it (the openapi test
 * renders errors and validates them against it). A wire package owns the shape it defines; route docs and path
 * claims name shapes by `name`, so a package may answer in another's shape without importing it.
 */
export interface ErrorShape {
  /** what RouteDoc.errors and PathClaim.shape name, e.g. `openai` */
  name: string;
  /** the OpenAPI component, e.g. `OpenAiError` */
  schemaName: string;
  schema: SchemaDoc;
  render: ErrorRenderer;
}

/** A reason → string table turned into a renderer: the common form of every vendor shape. */
export function tableRenderer<T extends string>(
  table: Readonly<Record<GatewayError['reason'], T>>,
  body: (err: GatewayError, type: T) => unknown,
): ErrorRenderer {
  return (err) => ({ status: err.status, body: body(err, table[err.reason]) });
}
