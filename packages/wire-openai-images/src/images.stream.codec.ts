import type { GeneratedImage, ImageStreamPart, PreparedImageCall } from '@gateway/core';
import { encodeUsage } from './images.response.codec';
import { usedSettings } from './images.used-settings';

export interface ImageStreamEvent {
  type: string;
  [field: string]: unknown;
}

/**
 * Canonical stream parts → `image_generation.*` / `image_edit.*` events. A finished image is held back
 * until the usage arrives, because `*.completed` carries it.
 */
export class ImageEventEncoder {
  private readonly prefix: string;
  private readonly held: GeneratedImage[] = [];

  constructor(
    private readonly call: PreparedImageCall,
    private readonly createdAt: number,
  ) {
    this.prefix = call.operation === 'edit' ? 'image_edit' : 'image_generation';
  }

  private event(kind: string, image: GeneratedImage, extra: Record<string, unknown>): ImageStreamEvent {
    const used = usedSettings(this.call, image);
    return {
      type: `${this.prefix}.${kind}`,
      b64_json: Buffer.from(image.data).toString('base64'),
      background: used.background,
      created_at: this.createdAt,
      output_format: this.call.settings.outputFormat,
      quality: used.quality,
      size: used.size,
      ...extra,
    };
  }

  encode(part: ImageStreamPart): ImageStreamEvent[] {
    switch (part.type) {
      case 'partial-image':
        return [this.event('partial_image', part.image, { partial_image_index: part.partialIndex })];
      case 'image':
        this.held.push(part.image);
        return [];
      case 'finish': {
        const usage = encodeUsage(part.usage ?? { inputTextTokens: 0, inputImageTokens: 0, outputTokens: 0 });
        return this.held.splice(0).map((image) => this.event('completed', image, { usage }));
      }
    }
  }
}
