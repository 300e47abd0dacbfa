import Ajv, { type ErrorObject, type Schema } from 'ajv';
import { invalid, type GatewayError } from '@gateway/core';

const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false });
/** For formats that choose among every failure (e.g. an unknown field before a missing one); verbose for the schemas. */
const ajvAll = new Ajv({ allErrors: true, verbose: true, strict: false, coerceTypes: false });

/** One schema failure, for a format that words its own refusals. */
export interface SchemaFailure {
  keyword: string;
  /** the failing value's path as the caller wrote it (`instances[0].image`) */
  at: string;
  /** `at` plus the missing or unknown property, for required / additionalProperties */
  param: string;
  /** the schema node holding the failed keyword (its annotations included) */
  schema: Record<string, unknown>;
  value: unknown;
  params: Record<string, unknown>;
}

/** Picks and words the refusal among a body's failures; undefined falls back to the generic wording. */
export type SchemaRefusal = (failures: SchemaFailure[]) => GatewayError | undefined;

const atOf = (e: ErrorObject): string =>
  e.instancePath
    .replace(/^\//, '')
    .replace(/\/(\d+)/g, '[$1]')
    .replace(/\//g, '.');

function paramOf(e: ErrorObject): string {
  const base = atOf(e);
  const child =
    e.keyword === 'required'
      ? (e.params as { missingProperty: string }).missingProperty
      : e.keyword === 'additionalProperties'
        ? (e.params as { additionalProperty: string }).additionalProperty
        : '';
  return [base, child].filter(Boolean).join('.');
}

function failureOf(e: ErrorObject): SchemaFailure {
  return {
    keyword: e.keyword,
    at: atOf(e),
    param: paramOf(e),
    schema: (e.parentSchema ?? {}) as Record<string, unknown>,
    value: e.data,
    params: e.params as Record<string, unknown>,
  };
}

function describe(e: ErrorObject, param: string): string {
  switch (e.keyword) {
    case 'required':
      return `Missing required field "${param}".`;
    case 'additionalProperties':
      return `Unknown field "${param}".`;
    case 'enum':
      return `"${param}" must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}.`;
    default:
      return `"${param || 'body'}" ${e.message ?? 'is invalid'}.`;
  }
}

/**
 * Compiles a JSON schema into a checker that throws invalid_request naming the field. A format with its own refusal
 * codes passes `refuse`, which sees every failure and returns the one to answer.
 */
export function compileValidator<T>(schema: Schema, code = 'invalid_request_body', refuse?: SchemaRefusal): (body: unknown) => T {
  const validate = (refuse ? ajvAll : ajv).compile(schema);
  return (body: unknown): T => {
    if (!validate(body)) {
      const failures = refuse ? validate.errors!.map(failureOf) : [];
      const worded = refuse?.(failures);
      if (worded) throw worded;
      const e = validate.errors![0]!;
      const param = paramOf(e);
      const c = e.keyword === 'additionalProperties' ? 'unknown_field' : e.keyword === 'required' ? 'missing_field' : code;
      throw invalid(c, describe(e, param), param || undefined);
    }
    return body as T;
  };
}
