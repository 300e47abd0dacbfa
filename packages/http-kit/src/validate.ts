import Ajv, { type ErrorObject, type Schema } from 'ajv';
import { invalid } from '@gateway/core';

const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false });

function paramOf(e: ErrorObject): string {
  const base = e.instancePath
    .replace(/^\//, '')
    .replace(/\/(\d+)/g, '[$1]')
    .replace(/\//g, '.');
  const child =
    e.keyword === 'required'
      ? (e.params as { missingProperty: string }).missingProperty
      : e.keyword === 'additionalProperties'
        ? (e.params as { additionalProperty: string }).additionalProperty
        : '';
  return [base, child].filter(Boolean).join('.');
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

/** Compiles a JSON schema into a checker that throws invalid_request naming the field. */
export function compileValidator<T>(schema: Schema, code = 'invalid_request_body'): (body: unknown) => T {
  const validate = ajv.compile(schema);
  return (body: unknown): T => {
    if (!validate(body)) {
      const e = validate.errors![0];
      const param = paramOf(e);
      const c = e.keyword === 'additionalProperties' ? 'unknown_field' : e.keyword === 'required' ? 'missing_field' : code;
      throw invalid(c, describe(e, param), param || undefined);
    }
    return body as T;
  };
}
