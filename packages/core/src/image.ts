/** Canonical image generation and editing. */

import type { Warning } from './warnings';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface ImageInput {
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp';
  data: Uint8Array;
  width: number;
  height: number;
}

export interface ImageRequest {
  model: string;
  prompt: string;
  n: number;
  width: number;
  height: number;
  quality?: string;
  style?: string;
  background?: string;
  outputFormat: ImageFormat;
  /** present for edits */
  images?: ImageInput[];
  mask?: ImageInput;
  partialImages?: number;
  /** 0-100, jpeg/webp only */
  outputCompression?: number;
}

export interface GeneratedImage {
  mediaType: string;
  data: Uint8Array;
  revisedPrompt?: string;
}

export interface ImageUsage {
  inputTextTokens: number;
  inputImageTokens: number;
  outputTokens: number;
}

export interface ImageResult {
  images: GeneratedImage[];
  warnings: Warning[];
  usage?: ImageUsage;
  /** the settings the upstream reports it used where the request left them to it (`auto`) */
  used?: { background?: 'transparent' | 'opaque'; quality?: string };
}

/** A streamed generation: partial renders of the image, then the image, then the end. */
export type ImageStreamPart =
  | { type: 'partial-image'; partialIndex: number; image: GeneratedImage }
  | { type: 'image'; image: GeneratedImage }
  | { type: 'finish'; warnings: Warning[]; usage?: ImageUsage };
