import { invalid, probeClientImage, type VideoImage } from '@gateway/core';
import type { FetchedBytes, SafeFetchOptions } from '@gateway/http-kit';

type Json = Record<string, unknown>;
export type UrlLoader = (url: string, options: SafeFetchOptions) => Promise<FetchedBytes>;

export const IMAGE_ROLES = ['first_frame', 'last_frame', 'reference_image'] as const;
type Role = (typeof IMAGE_ROLES)[number];

/** Ark item types this gateway does not take, each with its own code. */
const REFUSED_TYPES: Readonly<Record<string, { code: string; what: string }>> = {
  video_url: { code: 'unsupported_reference_video', what: 'reference video and video editing inputs are not supported' },
  audio_url: { code: 'unsupported_reference_audio', what: 'reference audio inputs are not supported' },
  draft_task: { code: 'unsupported_draft_task', what: 'draft tasks are not supported; create the final task directly' },
};

export interface DecodedContent {
  prompt?: string;
  firstFrame?: VideoImage;
  lastFrame?: VideoImage;
  referenceImages?: VideoImage[];
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function onlyKeys(item: Json, at: string, allowed: string[]): void {
  for (const k of Object.keys(item)) {
    if (!allowed.includes(k) && item[k] !== null && item[k] !== undefined) {
      throw invalid('unsupported_field', `Unknown or unsupported field ${at}.${k}; allowed here: ${allowed.join(', ')}.`, `${at}.${k}`);
    }
  }
}

async function loadImage(url: string, at: string, loadUrl: UrlLoader): Promise<VideoImage> {
  const fetched = await loadUrl(url, { param: at });
  const probed = probeClientImage(fetched.data, at);
  if (!probed) throw invalid('invalid_image_data', `${at} is not a PNG, JPEG or WebP image.`, at);
  if (url.startsWith('data:') && fetched.contentType && fetched.contentType !== probed.mediaType) {
    throw invalid('image_mime_mismatch', `${at} says ${fetched.contentType} but the bytes are ${probed.mediaType}.`, at);
  }
  return { mediaType: probed.mediaType, data: fetched.data, width: probed.width, height: probed.height };
}

/**
 * `content[]` → prompt and images by role. An image without a role is the first frame, as in Ark.
 * Mixing input modes (frames with reference images) is left to the limits table, which owns that rule.
 */
export async function decodeContent(content: unknown, loadUrl: UrlLoader): Promise<DecodedContent> {
  if (!Array.isArray(content))
    throw invalid('invalid_content', '"content" must be an array of {type:"text"} and {type:"image_url"} items.', 'content');
  const out: DecodedContent = {};
  for (const [i, item] of content.entries()) {
    const at = `content[${i}]`;
    if (!isObject(item) || typeof item.type !== 'string')
      throw invalid('invalid_content_item', `${at} must be an object with a "type".`, at);
    const refused = REFUSED_TYPES[item.type];
    if (refused) throw invalid(refused.code, `${at}: ${refused.what}.`, `${at}.type`);
    if (item.type === 'text') {
      onlyKeys(item, at, ['type', 'text']);
      if (typeof item.text !== 'string') throw invalid('invalid_text', `${at}.text must be a string.`, `${at}.text`);
      if (out.prompt !== undefined) throw invalid('duplicate_text', `Only one text item is accepted; ${at} is a second one.`, at);
      out.prompt = item.text;
      continue;
    }
    if (item.type !== 'image_url') {
      throw invalid(
        'invalid_content_type',
        `${at}.type ${JSON.stringify(item.type)} is not supported; use "text" or "image_url".`,
        `${at}.type`,
      );
    }
    onlyKeys(item, at, ['type', 'image_url', 'role']);
    const url = isObject(item.image_url) ? item.image_url.url : undefined;
    if (typeof url !== 'string' || !url)
      throw invalid('invalid_image_url_item', `${at}.image_url must be {url: "<https URL or data URL>"}.`, `${at}.image_url`);
    const role = (item.role ?? 'first_frame') as Role;
    if (!IMAGE_ROLES.includes(role)) {
      throw invalid(
        'invalid_image_role',
        `${at}.role ${JSON.stringify(item.role)} is not supported; use ${IMAGE_ROLES.join(', ')}.`,
        `${at}.role`,
      );
    }
    const image = await loadImage(url, `${at}.image_url.url`, loadUrl);
    if (role === 'reference_image') (out.referenceImages ??= []).push(image);
    else {
      const key = role === 'first_frame' ? 'firstFrame' : 'lastFrame';
      if (out[key]) throw invalid(`duplicate_${role}`, `Only one ${role} image is accepted; ${at} is a second one.`, `${at}.role`);
      out[key] = image;
    }
  }
  return out;
}
