import { invalid, type ImageRequest, unsupportedSetting, type Warning } from '@gateway/provider-kit';

/** Aspect ratios Gemini image models take in generationConfig.imageConfig. */
export const GEMINI_IMAGE_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;

/** The supported ratio nearest to width:height. */
export function nearestImageRatio(width: number, height: number): string {
  const want = width / height;
  let best: string = GEMINI_IMAGE_RATIOS[0];
  for (const r of GEMINI_IMAGE_RATIOS) {
    const [a = 1, b = 1] = r.split(':').map(Number);
    const [ba = 1, bb = 1] = best.split(':').map(Number);
    if (Math.abs(Math.log(a / b / want)) < Math.abs(Math.log(ba / bb / want))) best = r;
  }
  return best;
}

/**
 * A canonical image request → one generateContent body (the port sends it n times: Gemini image models
 * return one image per call). Settings Gemini has no field for become warnings; a mask is refused, since
 * ignoring it would edit the whole picture.
 */
export function convertToGoogleImage(req: ImageRequest): { body: Record<string, unknown>; warnings: Warning[] } {
  if (req.mask) throw invalid('mask_not_supported', "This model's upstream (Gemini) edits by instruction and takes no mask.", 'mask');
  const warnings: Warning[] = [];
  if (req.quality && req.quality !== 'auto')
    warnings.push(unsupportedSetting('quality', 'not supported by the upstream (Gemini); ignored'));
  if (req.style) warnings.push(unsupportedSetting('style', 'not supported by the upstream (Gemini); ignored'));
  if (req.background && req.background !== 'auto')
    warnings.push(unsupportedSetting('background', 'not supported by the upstream (Gemini); ignored'));
  if (req.outputCompression !== undefined)
    warnings.push(unsupportedSetting('output_compression', 'not supported by the upstream (Gemini); ignored'));
  const parts: Array<Record<string, unknown>> = [{ text: req.prompt }];
  for (const img of req.images ?? []) {
    parts.push({
      inlineData: {
        mimeType: img.mediaType,
        data: Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength).toString('base64'),
      },
    });
  }
  return {
    body: {
      contents: [{ role: 'user', parts }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: nearestImageRatio(req.width, req.height) } },
    },
    warnings,
  };
}
