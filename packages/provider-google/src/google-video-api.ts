/** The Veo (predictLongRunning) shapes the gateway sends and reads. Every field read may be missing. */
import { s, type Infer } from '@gateway/provider-kit';
import { googleErrorObjectSchema } from './google-api';

export interface VeoImage {
  bytesBase64Encoded: string;
  mimeType: string;
}

export interface VeoInstance {
  prompt?: string;
  image?: VeoImage;
  lastFrame?: VeoImage;
  /** `asset` as the Gemini API's REST examples write it (Veo 3.1: up to 3, of one subject) */
  referenceImages?: Array<{ image: VeoImage; referenceType: 'asset' }>;
}

/** Who may appear: `allow_all` is for text-to-video only; image inputs take `allow_adult` or `dont_allow`. */
export type VeoPersonGeneration = 'allow_all' | 'allow_adult' | 'dont_allow';

export interface VeoPredictBody {
  instances: VeoInstance[];
  parameters: {
    sampleCount: number;
    durationSeconds: number;
    aspectRatio: string;
    resolution: string;
    negativePrompt?: string;
    seed?: number;
    personGeneration?: VeoPersonGeneration;
  };
}

const veoSample = s.object({ video: s.object({ uri: s.string(), encodedVideo: s.string(), encoding: s.string() }) });

/** A google.longrunning Operation as the Gemini API returns it for Veo (a minimal schema: every field may be missing). */
export const veoOperationSchema = s.object({
  name: s.string(),
  done: s.boolean(),
  metadata: s.unknown(),
  error: googleErrorObjectSchema,
  response: s.object({
    generateVideoResponse: s.object({
      generatedSamples: s.array(veoSample),
      raiMediaFilteredCount: s.number(),
      raiMediaFilteredReasons: s.array(s.string()),
    }),
  }),
});

export type VeoSample = Infer<typeof veoSample>;
export type VeoOperation = Infer<typeof veoOperationSchema>;
