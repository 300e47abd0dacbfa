import Ajv from 'ajv';
import type { FromSchema } from 'json-schema-to-ts';
import { StartupError } from './startup-checks';

/** A whole number of at least `minimum` (milliseconds, counts, days); unset means `default` or the consumer's own. */
const whole = <M extends number>(minimum: M, description: string) => ({ type: 'integer', minimum, description }) as const;
const flag = (description: string) => ({ type: 'string', enum: ['true', 'false', '1', '0', ''], description }) as const;

/**
 * Every variable the gateway reads whose value has a shape: one schema, checked once at start-up (ajv coerces the text
 * to numbers). A bad value stops start-up with one line naming the variable. Free text (URLs, keys, names) is read
 * as given by gateway-env.ts. docs/configuration.md lists each with its meaning.
 */
export const envSchema = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8080, description: 'where to listen' },
    TRUST_PROXY: flag('X-Forwarded-* name the client and origin'),
    METRICS_PUBLIC: flag('/metrics without the admin key'),
    RATE_LIMIT_ON_REDIS_ERROR: {
      type: 'string',
      enum: ['open', 'closed', ''],
      description: 'limits while Redis is down',
      'x-cause': 'rate_limit_policy_invalid',
    },
    MODEL_NOT_IN_GROUP_STATUS: {
      type: 'integer',
      enum: [403, 503],
      default: 503,
      description: 'status of a model outside the group',
      'x-cause': 'model_not_in_group_status_invalid',
    },
    KEY_CACHE_TTL_MS: { ...whole(0, 'key lookups cached'), default: 2000 },
    QUOTA_CACHE_MS: { ...whole(0, 'quota reads reused'), default: 1000 },
    RESPONSE_CACHE_MAX_BYTES: { ...whole(1, 'the response cache size cap'), default: 268_435_456 },
    CONFIG_POLL_MS: { ...whole(100, 'admin config changes polled'), default: 2000 },
    SHUTDOWN_GRACE_MS: { ...whole(0, 'SIGTERM waits for in-flight work'), default: 10000 },
    MAX_KEYS_PER_ACCOUNT: whole(1, 'live keys of one account'),
    REQUESTS_PER_MINUTE_PER_ACCOUNT: whole(0, 'all keys of an account together'),
    TOKENS_PER_MINUTE_PER_ACCOUNT: whole(0, 'all keys of an account together'),
    CONCURRENT_STREAMS_PER_ACCOUNT: whole(0, 'all keys of an account together'),
    RESPONSES_WS_MAX_PER_KEY: whole(1, 'Responses WebSocket connections per key'),
    RESPONSES_RETENTION_DAYS: { ...whole(0, 'stored responses kept'), default: 30 },
    USAGE_RETENTION_DAYS: { ...whole(0, 'usage rows kept (0: forever)'), default: 0 },
    WEBHOOK_DELIVERY_RETENTION_DAYS: { ...whole(0, 'delivery rows kept'), default: 30 },
    CONTENT_PROBE_INTERVAL_MS: whole(1, 'shared content re-checked'),
    BATCH_CONCURRENCY_PER_ACCOUNT: { ...whole(1, "one account's batch lines in flight, all instances"), default: 8 },
    BATCH_LINE_DELAY_MS: { ...whole(0, 'a pause before each batch line'), default: 0 },
    BATCH_COMPLETION_WINDOW_MS: whole(1, 'the batch completion window (24 h)'),
    HTTP_HEADERS_TIMEOUT_MS: whole(1, 'the whole header block'),
    HTTP_REQUEST_TIMEOUT_MS: whole(1, 'the whole request'),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: whole(1, 'an idle kept-alive connection'),
    WEBHOOK_RETRY_FIRST_MS: whole(1, 'first retry delay'),
    WEBHOOK_RETRY_MAX_DELAY_MS: whole(1, 'longest retry delay'),
    WEBHOOK_RETRY_WINDOW_MS: whole(1, 'how long deliveries are retried'),
    WEBHOOK_TIMEOUT_MS: whole(1, "one POST's time limit"),
    WEBHOOK_WORKER_INTERVAL_MS: whole(1, 'pause between delivery rounds'),
    WEBHOOK_MAX_IN_FLIGHT_PER_ACCOUNT: whole(1, "one account's deliveries in flight"),
    TASK_EVENTS_POLL_MS: whole(1, 'live status re-read without a change notice'),
    TASK_EVENTS_MAX_PER_KEY: whole(1, 'live-status streams per key'),
    TASK_EVENTS_MAX_PER_ACCOUNT: whole(1, 'live-status streams per account'),
    TASK_EVENTS_MAX_PER_INSTANCE: whole(1, 'live-status streams per instance'),
    KEY_EXPIRY_ALERT_HOURS: whole(0, 'expiry announced this long before'),
    ALERT_SWEEP_INTERVAL_MS: whole(1, 'alerts looked for'),
    VIDEO_WORKER_INTERVAL_MS: whole(1, 'video worker pause between claims'),
    VIDEO_WORKER_CONCURRENCY: whole(1, 'tasks one instance drives at once'),
    VIDEO_WORKER_LEASE_MS: whole(1, "a claimed task's lease"),
    VIDEO_POLL_MIN_MS: whole(1, 'shortest upstream poll'),
    VIDEO_POLL_MAX_MS: whole(1, 'longest upstream poll'),
  },
} as const;

export type EnvValues = FromSchema<typeof envSchema>;

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, strict: false, allErrors: false });
const validate = ajv.compile(envSchema);
const known = Object.keys(envSchema.properties);

const alternatives = (values: string[]) => `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;

function refusal(name: string, raw: string | undefined): StartupError {
  const rule = envSchema.properties[name as keyof typeof envSchema.properties] as {
    type: string;
    minimum?: number;
    maximum?: number;
    enum?: readonly unknown[];
    /** the failure's cause where operators knew a specific one before the schema */
    'x-cause'?: string;
  };
  const wanted = rule.enum
    ? alternatives(rule.enum.filter((v) => v !== '').map(String))
    : rule.type === 'integer'
      ? `a whole number${rule.maximum !== undefined ? ` from ${rule.minimum} to ${rule.maximum}` : ` of at least ${rule.minimum}`}`
      : 'valid';
  return new StartupError(`${name} must be ${wanted}; got ${JSON.stringify((raw ?? '').slice(0, 40))}.`, rule['x-cause'] ?? 'env_invalid');
}

/** The shaped variables of `e`, coerced and defaulted; the first bad one stops start-up, named. */
export function readEnv(e: NodeJS.ProcessEnv): EnvValues {
  // An empty value counts as unset (compose files write `VAR=`), except where '' is itself a value.
  const values: Record<string, unknown> = {};
  for (const name of known) if (e[name] !== undefined && e[name] !== '') values[name] = e[name];
  if (!validate(values)) {
    const err = validate.errors![0]!;
    const name = err.instancePath.replace(/^\//, '');
    throw refusal(name, e[name]);
  }
  return values as EnvValues;
}

/** `true`/`1` of a flag. */
export const isOn = (v: string | undefined): boolean => v === 'true' || v === '1';
