/**
 * The contract an adapter loaded from outside the repository implements (docs/providers/writing-an-adapter.md).
 * Semantic versioning, history in ADAPTER-CONTRACT-CHANGELOG.md: a module declaring 1.x loads on a gateway of
 * 1.y when x ≤ y; another major never loads.
 *
 * This file imports nothing: its plain types are the whole contract, so it can be handed to an adapter's author (or
 * published) without the gateway. They are structurally the core's canonical types (adapter-contract.test.ts checks
 * both directions), and the gateway's side of it (the kit, the guard) is written against them.
 */
export const ADAPTER_CONTRACT_VERSION = '1.0.0';

/**
 * What an outside module's default export is: the built-ins' descriptor (`optionsSchema`, `create`) without the
 * built-in `type` name (the config entry's `id` names it), plus the contract version it was written against. Its key
 * is the entry's `apiKey`, as for a built-in: the field the store seals, the admin API never shows and every
 * answer is redacted of; options hold no secrets.
 */
export interface AdapterDescriptor {
  readonly contractVersion: string;
  /** shown in logs and traces instead of a built-in type; defaults to the module's file name */
  readonly name?: string;
  /** a JSON schema (ajv dialect) of the entry's `options` */
  readonly optionsSchema: { readonly type: 'object' } & { readonly [k: string]: unknown };
  create(entry: AdapterEntry, env: AdapterEnvironment): AdapterPorts;
}

/** The config entry, its options checked against the schema and its `apiKey` resolved. */
export interface AdapterEntry {
  id?: string;
  baseUrl?: string;
  apiKey?: string;
  options?: Record<string, unknown>;
  timeouts?: { connectMs?: number; firstByteMs?: number; idleMs?: number; totalMs?: number };
}

/** The second argument of `create`: where to write local files, and the helpers, so a module needs no install. */
export interface AdapterEnvironment {
  readonly dataDir: string;
  readonly kit: AdapterKit;
}

/** The closed set of failure reasons. */
export type AdapterErrorReason =
  | 'invalid_request'
  | 'unauthenticated'
  | 'permission_denied'
  | 'model_not_in_group'
  | 'model_not_found'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'quota_exhausted'
  | 'content_policy'
  | 'upstream_error'
  | 'upstream_malformed_response'
  | 'upstream_unavailable'
  | 'upstream_timeout'
  | 'internal';

export interface AdapterErrorDetails {
  /** stable machine-readable code, e.g. `invalid_duration`; defaults to the reason */
  code?: string;
  /** the request field at fault */
  param?: string;
  retryAfterSeconds?: number;
  upstreamStatus?: number;
  upstreamCode?: string;
  upstreamRequestId?: string;
  /** the upstream's own error text, for operators' logs only: never rendered to callers */
  upstreamMessage?: string;
}

/** A failure of the closed table, as the kit makes it; throw it. */
export interface AdapterError extends Error {
  readonly reason: AdapterErrorReason;
  readonly code: string;
  readonly status: number;
  readonly retryable: boolean;
  readonly retryAfterSeconds?: number;
}

export interface AdapterSseEvent {
  event: string;
  data: string;
  id?: string;
}

export interface AdapterKit {
  readonly contractVersion: string;
  /** the closed set of failure reasons (their HTTP status and whether a retry may help) */
  readonly reasons: Readonly<Record<AdapterErrorReason, { readonly status: number; readonly retryable: boolean }>>;
  /** a failure with a reason from the closed table */
  error(reason: AdapterErrorReason, message: string, details?: AdapterErrorDetails): AdapterError;
  /** a non-2xx upstream answer mapped through the built-ins' one status table (401/403 never repeat the upstream's text) */
  statusError(status: number, message?: string, details?: { retryAfter?: string | null; requestId?: string; code?: string }): AdapterError;
  /** a 2xx answer the adapter cannot read: upstream_malformed_response */
  malformed(what: string): AdapterError;
  /** server-sent events of a response body (fetch's `response.body`) */
  parseSse(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<AdapterSseEvent>;
  /** newline-delimited JSON of a response body; a line that is not JSON is upstream_malformed_response */
  parseNdjson(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<unknown>;
}

/** What `create` returns: the ports of what the upstream can do, and how its sockets are let go. */
export interface AdapterPorts {
  text?: AdapterTextPort;
  image?: AdapterImagePort;
  video?: AdapterVideoPort;
  /** frees sockets and timers now (shutdown) */
  close(): void;
  /** the entry was replaced: let go of idle sockets now, the rest when the calls in flight end */
  drain(): void;
}

/** Pass `signal` to every upstream call: it fires when the caller leaves or a timeout of the entry expires. */
export interface AdapterCallContext {
  signal: AbortSignal;
  requestId: string;
}

// ---- text

export type AdapterWarning =
  | { type: 'unsupported-setting'; setting: string; details?: string }
  | { type: 'dropped-content'; content: string; details?: string }
  | { type: 'other'; message: string };

export interface AdapterTextPart {
  type: 'text';
  text: string;
}

/** an image given inline (base64 without a data-URL prefix) or by URL */
export interface AdapterImagePart {
  type: 'image';
  mediaType?: string;
  data?: string;
  url?: string;
}

export interface AdapterReasoningPart {
  type: 'reasoning';
  text: string;
  /** provider signature that must travel back unchanged */
  signature?: string;
}

export interface AdapterToolCallPart {
  type: 'tool-call';
  id: string;
  name: string;
  /** JSON text of the arguments */
  arguments: string;
}

export interface AdapterToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  name?: string;
  content: Array<AdapterTextPart | AdapterImagePart>;
  isError?: boolean;
}

export type AdapterAssistantContent = AdapterTextPart | AdapterReasoningPart | AdapterToolCallPart;

export type AdapterMessage =
  | { role: 'user'; content: Array<AdapterTextPart | AdapterImagePart>; name?: string }
  | { role: 'assistant'; content: AdapterAssistantContent[] }
  | { role: 'tool'; content: AdapterToolResultPart[] };

export type AdapterFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export interface AdapterUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens?: number;
  cacheCreationInputTokens?: number;
  reasoningTokens?: number;
}

export interface AdapterTextRequest {
  /** the upstream's model name */
  model: string;
  system?: string;
  messages: AdapterMessage[];
  /** `parameters` is the JSON schema of the arguments */
  tools?: Array<{ name: string; description?: string; parameters: Record<string, unknown> }>;
  /** tools the provider runs itself, as the client declared them (an adapter without `hostedToolFormats` never gets them) */
  hostedTools?: Array<{ format: string; type: string; param: string; definition: Record<string, unknown> }>;
  toolChoice?: 'auto' | 'none' | 'required' | { type: 'tool'; name: string };
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
  n?: number;
  responseFormat?: { type: 'text' } | { type: 'json'; schema?: Record<string, unknown>; name?: string };
  reasoning?: {
    effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';
    budgetTokens?: number;
    includeThoughts?: boolean;
  };
  user?: string;
  /** the client's own body, for an upstream of the same dialect; an adapter may ignore it */
  native?: { dialect: string; body: Readonly<Record<string, unknown>> };
}

export interface AdapterTextResult {
  id?: string;
  model: string;
  content: AdapterAssistantContent[];
  finishReason: AdapterFinishReason;
  stopSequence?: string;
  usage: AdapterUsage;
  /** canonical features the upstream could not honour */
  warnings: AdapterWarning[];
  upstreamRequestId?: string;
}

/** Deltas, then exactly one `finish` last. */
export type AdapterTextStreamPart =
  | { type: 'input-usage'; usage: Pick<AdapterUsage, 'inputTokens' | 'cachedInputTokens' | 'cacheCreationInputTokens'> }
  | { type: 'text-delta'; delta: string }
  | { type: 'reasoning-delta'; delta: string; signature?: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  | {
      type: 'finish';
      finishReason: AdapterFinishReason;
      usage: AdapterUsage;
      stopSequence?: string;
      warnings?: AdapterWarning[];
      upstreamRequestId?: string;
    };

export interface AdapterTextPort {
  generate(request: AdapterTextRequest, ctx: AdapterCallContext): Promise<AdapterTextResult>;
  stream(request: AdapterTextRequest, ctx: AdapterCallContext): AsyncIterable<AdapterTextStreamPart>;
  /** the request's input tokens as the upstream counts them; leave it out when the upstream cannot count */
  countTokens?(request: AdapterTextRequest, ctx: AdapterCallContext): Promise<number>;
  /** the inbound formats whose hosted tools this upstream runs natively */
  readonly hostedToolFormats?: readonly string[];
}

// ---- images

export interface AdapterImageInput {
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp';
  data: Uint8Array;
  width: number;
  height: number;
}

export interface AdapterImageRequest {
  model: string;
  prompt: string;
  n: number;
  width: number;
  height: number;
  quality?: string;
  style?: string;
  background?: string;
  outputFormat: 'png' | 'jpeg' | 'webp';
  /** present for edits */
  images?: AdapterImageInput[];
  mask?: AdapterImageInput;
  partialImages?: number;
  outputCompression?: number;
}

export interface AdapterGeneratedImage {
  mediaType: string;
  data: Uint8Array;
  revisedPrompt?: string;
}

export interface AdapterImageUsage {
  inputTextTokens: number;
  inputImageTokens: number;
  outputTokens: number;
}

export interface AdapterImageResult {
  images: AdapterGeneratedImage[];
  warnings: AdapterWarning[];
  usage?: AdapterImageUsage;
  /** the settings the upstream reports it used where the request left them to it (`auto`) */
  used?: { background?: 'transparent' | 'opaque'; quality?: string };
}

export type AdapterImageStreamPart =
  | { type: 'partial-image'; partialIndex: number; image: AdapterGeneratedImage }
  | { type: 'image'; image: AdapterGeneratedImage }
  | { type: 'finish'; warnings: AdapterWarning[]; usage?: AdapterImageUsage };

export interface AdapterImagePort {
  generate(request: AdapterImageRequest, ctx: AdapterCallContext): Promise<AdapterImageResult>;
  /** optional: partial images while rendering (n is 1) */
  stream?(request: AdapterImageRequest, ctx: AdapterCallContext): AsyncIterable<AdapterImageStreamPart>;
}

// ---- video

export type AdapterVideoImage = AdapterImageInput;

export interface AdapterVideoRequest {
  model: string;
  /** the upstream's model name */
  upstreamModel: string;
  prompt?: string;
  firstFrame?: AdapterVideoImage;
  lastFrame?: AdapterVideoImage;
  referenceImages?: AdapterVideoImage[];
  durationSeconds: number;
  resolution: '480p' | '720p' | '1080p' | '4k';
  aspectRatio: 'adaptive' | '16:9' | '4:3' | '1:1' | '3:4' | '9:16' | '21:9';
  generateAudio: boolean;
  fps: number;
  /** a new take, with this prompt, of an earlier video of this upstream (only when the port declares `remix`) */
  remixOf?: { taskId: string; operation: string };
  negativePrompt?: string;
  seed?: number;
}

export interface AdapterVideoArtifact {
  /** a readable stream of the MP4 bytes */
  open(): Promise<NodeJS.ReadableStream>;
  /** the delivered shape as the upstream's answer states it; leave out what it does not state (never echo the request) */
  width?: number;
  height?: number;
  durationSeconds?: number;
  fps?: number;
  thumbnail?: { mediaType: 'image/jpeg' | 'image/png'; open(): Promise<NodeJS.ReadableStream> };
  /** called once the bytes are copied: free what was kept */
  dispose?(): Promise<void>;
}

export type AdapterVideoStatus =
  /** `running: false` while the upstream still has it queued; absent means running */
  | { state: 'pending'; progress?: number; running?: boolean }
  | { state: 'succeeded'; artifact: AdapterVideoArtifact }
  | { state: 'failed'; code: string; message: string };

export interface AdapterVideoContext {
  taskId: string;
  signal?: AbortSignal;
}

export interface AdapterVideoPort {
  /** an opaque reference to the upstream's operation */
  start(request: AdapterVideoRequest, ctx: AdapterVideoContext): Promise<string>;
  status(ref: string, ctx: AdapterVideoContext): Promise<AdapterVideoStatus>;
  cancel?(ref: string): Promise<void>;
  /** throws an invalid_request error for what the upstream cannot render, before anything is stored or sent */
  check?(request: AdapterVideoRequest): void;
  /** true only when a repeated start() for the same ctx.taskId cannot cause a second generation */
  readonly idempotentStart?: boolean;
  /** true when start() honours `request.remixOf` */
  readonly remix?: boolean;
}

/** `1.2.3` → [1, 2, 3]; undefined when it is not a semantic version. */
function semver(v: unknown): [number, number, number] | undefined {
  const m = typeof v === 'string' ? /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(v) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Why a module's declared contract version cannot run on this gateway; undefined when it can. */
export function contractVersionProblem(declared: unknown): string | undefined {
  const ours = semver(ADAPTER_CONTRACT_VERSION)!;
  const theirs = semver(declared);
  if (!theirs) return `contractVersion must be a semantic version such as "${ADAPTER_CONTRACT_VERSION}" (got ${JSON.stringify(declared)})`;
  if (theirs[0] !== ours[0] || theirs[1] > ours[1])
    return `written for adapter contract ${String(declared)}; this gateway speaks ${ADAPTER_CONTRACT_VERSION} (same major, minor up to ${ours[1]})`;
  return undefined;
}
