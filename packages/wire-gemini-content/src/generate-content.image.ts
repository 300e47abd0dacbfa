import { decodeBase64Strict, invalid, type ImageFile, type ImageGeneration, type Principal } from '@gateway/core';

import type { GenerateContentRequestBody } from './generate-content.request.schema';

/**
 * generateContent on an image model: the text parts of the last user turn are the prompt, its inlineData images
 * make it an edit; the answer carries the pictures as inlineData parts, as Gemini's image models do.
 */
export async function generateImageContent(
  images: ImageGeneration,
  principal: Principal,
  modelId: string,
  body: GenerateContentRequestBody,
  meta: { format: string; requestId: string; signal: AbortSignal },
  who: { responseId: string; modelVersion: string },
) {
  const contents = body.contents;
  const last = [...contents].reverse().find((c) => (c.role ?? 'user') === 'user');
  if (!last) throw invalid('missing_contents', '"contents" needs a user turn with parts.', 'contents');
  const prompt = last.parts
    .filter((p) => typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
  const files: ImageFile[] = [];
  last.parts.forEach((p, i) => {
    if (!p.inlineData) return;
    const data = decodeBase64Strict(p.inlineData.data);
    if (!data)
      throw invalid(
        'invalid_inline_data',
        `contents[${contents.indexOf(last)}].parts[${i}].inlineData.data must be base64 image bytes.`,
        `contents.parts[${i}].inlineData`,
      );
    files.push({ data, param: `contents.parts[${i}].inlineData` });
  });
  const candidateCount = body.generationConfig?.candidateCount;
  const call = images.prepare(principal, {
    operation: files.length ? 'edit' : 'generate',
    model: modelId,
    prompt,
    n: candidateCount ?? 1,
    images: files.length ? files : undefined,
    paramNames: { prompt: 'contents.parts.text', n: 'generationConfig.candidateCount', image: 'contents.parts.inlineData' },
  });
  const result = await images.generate(principal, call, meta);
  const parts = result.images.map((img) => ({ inlineData: { mimeType: img.mediaType, data: Buffer.from(img.data).toString('base64') } }));
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0, safetyRatings: [] }],
    usageMetadata: usageOf(result.usage),
    modelVersion: who.modelVersion,
    responseId: who.responseId,
  };
}

function usageOf(u?: { inputTextTokens: number; inputImageTokens: number; outputTokens: number }) {
  const prompt = (u?.inputTextTokens ?? 0) + (u?.inputImageTokens ?? 0);
  const out = u?.outputTokens ?? 0;
  return { promptTokenCount: prompt, candidatesTokenCount: out, totalTokenCount: prompt + out };
}
