import { nativeBody, nativeRequestFor, type TextRequest, type Warning } from '@gateway/provider-kit';
import { convertToGoogleRequest, GOOGLE_FORMAT, type GoogleRequestOptions } from './convert-to-google-request';

/**
 * The generateContent body for a canonical request. A request written in the generateContent dialect is sent as
 * the client wrote it (the model travels in the URL, so nothing in the body changes): thinkingConfig,
 * responseJsonSchema, cachedContent and fields the gateway does not know arrive unchanged. Any other is converted.
 */
export function googleRequestBody(req: TextRequest, opts: GoogleRequestOptions): { body: Record<string, unknown>; warnings: Warning[] } {
  const native = nativeRequestFor(req, GOOGLE_FORMAT);
  return native ? { body: nativeBody(native, {}), warnings: [] } : convertToGoogleRequest(req, opts);
}
