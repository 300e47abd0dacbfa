/** The Veo (predictLongRunning) shapes the gateway sends and reads. Every field read may be missing. */
import type { GoogleErrorObject } from './google-api';

export interface VeoImage {
  bytesBase64Encoded: string;
  mimeType: string;
}

export interface VeoInstance {
  prompt?: string;
  image?: VeoImage;
  lastFrame?: VeoImage;
  referenceImages?: Array<{ image: VeoImage; referenceType: 'ASSET' | 'STYLE' }>;
}

export interface VeoPredictBody {
  instances: VeoInstance[];
  parameters: { sampleCount: number; durationSeconds: number; aspectRatio: string; resolution: string };
}

export interface VeoSample {
  video?: { uri?: string; encodedVideo?: string; encoding?: string };
}

/** A google.longrunning Operation as the Gemini API returns it for Veo. */
export interface VeoOperation {
  name?: string;
  done?: boolean;
  metadata?: Record<string, unknown>;
  error?: GoogleErrorObject;
  response?: {
    generateVideoResponse?: {
      generatedSamples?: VeoSample[];
      raiMediaFilteredCount?: number;
      raiMediaFilteredReasons?: string[];
    };
  };
}
