import type {
  CallContext,
  ErrorReason,
  GatewayError,
  GatewayErrorOptions,
  ImageModelPort,
  ImageRequest,
  ImageResult,
  ImageStreamPart,
  TextRequest,
  TextResult,
  TextStreamPart,
  VideoRequest,
  VideoStatus,
  Warning,
} from '@gateway/core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type {
  AdapterCallContext,
  AdapterEntry,
  AdapterEnvironment,
  AdapterError,
  AdapterErrorDetails,
  AdapterErrorReason,
  AdapterImagePort,
  AdapterImageRequest,
  AdapterImageResult,
  AdapterImageStreamPart,
  AdapterKit,
  AdapterTextRequest,
  AdapterTextResult,
  AdapterTextStreamPart,
  AdapterVideoRequest,
  AdapterVideoStatus,
  AdapterWarning,
} from './adapter-contract';
import { ADAPTER_KIT } from './adapter-kit';
import type { ProviderEntry, ProviderEnvironment } from './provider-descriptor';

/**
 * The contract's plain types are the core's canonical ones in structure. tsc checks these lines (`npx tsc --noEmit`):
 * a field added to the core's request that the contract lacks is fine, one whose type drifts is not.
 */
type Fits<From, To> = [From] extends [To] ? true : false;
const fits = <From, To>(ok: Fits<From, To>) => ok;

it('what the gateway hands an adapter fits the contract', () => {
  expect([
    fits<TextRequest, AdapterTextRequest>(true),
    fits<VideoRequest & { upstreamModel: string }, AdapterVideoRequest>(true),
    fits<ImageRequest, AdapterImageRequest>(true),
    fits<CallContext, AdapterCallContext>(true),
    fits<ProviderEntry & { id: string }, AdapterEntry>(true),
    fits<ProviderEnvironment & { kit: AdapterKit }, AdapterEnvironment>(true),
    fits<GatewayError, AdapterError>(true),
  ]).not.toContain(false);
});

it('what an adapter answers by the contract is canonical for the gateway', () => {
  expect([
    fits<AdapterErrorDetails, GatewayErrorOptions>(true),
    fits<AdapterTextRequest, TextRequest>(true),
    fits<AdapterTextResult, TextResult>(true),
    fits<AdapterTextStreamPart, TextStreamPart>(true),
    fits<AdapterVideoStatus, VideoStatus>(true),
    fits<AdapterImageResult, ImageResult>(true),
    fits<AdapterImageStreamPart, ImageStreamPart>(true),
    fits<AdapterImagePort, ImageModelPort>(true),
    fits<AdapterWarning, Warning>(true),
    fits<Warning, AdapterWarning>(true),
    fits<AdapterErrorReason, ErrorReason>(true),
    fits<ErrorReason, AdapterErrorReason>(true),
  ]).not.toContain(false);
});

it('the kit offers exactly the closed table of reasons the contract names', () => {
  const named: Record<AdapterErrorReason, true> = {
    invalid_request: true,
    unauthenticated: true,
    permission_denied: true,
    model_not_in_group: true,
    model_not_found: true,
    not_found: true,
    conflict: true,
    payload_too_large: true,
    rate_limited: true,
    quota_exhausted: true,
    content_policy: true,
    upstream_error: true,
    upstream_malformed_response: true,
    upstream_unavailable: true,
    upstream_timeout: true,
    internal: true,
  };
  expect(Object.keys(ADAPTER_KIT.reasons).sort()).toEqual(Object.keys(named).sort());
});

it('the contract file imports nothing, so it can be handed to an adapter author without the gateway', () => {
  const text = readFileSync(path.join(__dirname, 'adapter-contract.ts'), 'utf8');
  expect(ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName)).toEqual([]);
});
