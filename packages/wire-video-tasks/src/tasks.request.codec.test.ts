import type { UrlLoader } from './content-items.codec';
import { checkBody } from '@gateway/http-kit';
import { createTaskBody, decodeCreateTask as decodeChecked } from './tasks.request.codec';
import { pngHeader } from '@gateway/testkit';

const png = `data:image/png;base64,${pngHeader(1280, 720).toString('base64')}`;
// Tests never leave the machine: every URL is answered here.
const loadUrl: UrlLoader = async (url) => {
  const m = /^data:([^;]+);base64,(.*)$/.exec(url);
  return m ? { data: Buffer.from(m[2]!, 'base64'), contentType: m[1] } : { data: pngHeader(640, 480) };
};
// the route's check, then the decoder
const decodeCreateTask = async (raw: unknown, load: UrlLoader) => decodeChecked(await checkBody(createTaskBody, raw), load);
const text = { type: 'text', text: 'a cat' };
const image = (role?: string, url = png) => ({ type: 'image_url', image_url: { url }, ...(role ? { role } : {}) });
const codeOf = (body: Record<string, unknown>) =>
  decodeCreateTask(body, loadUrl).then(
    () => 'accepted',
    (e: { code: string }) => e.code,
  );

describe('decodeCreateTask', () => {
  it('decodes text, frames by role and the scheduling fields', async () => {
    const c = await decodeCreateTask(
      {
        model: 'm',
        content: [text, image('first_frame'), image('last_frame', 'https://img.example/l.png')],
        ratio: 'adaptive',
        resolution: '720p',
        duration: 6,
        generate_audio: false,
        priority: 2,
        service_tier: 'flex',
        execution_expires_after: 7200,
      },
      loadUrl,
    );
    expect(c).toMatchObject({ modelId: 'm', priority: 2, serviceTier: 'flex', executionExpiresAfter: 7200 });
    expect(c.draft).toMatchObject({
      prompt: 'a cat',
      durationSeconds: 6,
      aspectRatio: 'adaptive',
      resolution: '720p',
      generateAudio: false,
    });
    expect(c.draft.firstFrame).toMatchObject({ width: 1280, height: 720 });
    expect(c.draft.lastFrame).toMatchObject({ width: 640, height: 480 });
  });

  it('an image without role is the first frame; reference images collect', async () => {
    expect((await decodeCreateTask({ model: 'm', content: [image()] }, loadUrl)).draft.firstFrame).toBeDefined();
    const refs = await decodeCreateTask({ model: 'm', content: [text, image('reference_image'), image('reference_image')] }, loadUrl);
    expect(refs.draft.referenceImages).toHaveLength(2);
  });

  it.each([
    ['missing model', { content: [text] }, 'missing_model'],
    ['content not an array', { model: 'm', content: 'a cat' }, 'invalid_content'],
    ['item without type', { model: 'm', content: [{ text: 'x' }] }, 'invalid_content_item'],
    [
      'video_url item',
      { model: 'm', content: [text, { type: 'video_url', video_url: { url: 'https://v' }, role: 'reference_video' }] },
      'unsupported_reference_video',
    ],
    [
      'audio_url item',
      { model: 'm', content: [text, { type: 'audio_url', audio_url: { url: 'https://a' }, role: 'reference_audio' }] },
      'unsupported_reference_audio',
    ],
    ['draft_task item', { model: 'm', content: [{ type: 'draft_task', draft_task: { id: 'x' } }] }, 'unsupported_draft_task'],
    ['unknown item type', { model: 'm', content: [{ type: 'file' }] }, 'invalid_content_type'],
    ['text not a string', { model: 'm', content: [{ type: 'text', text: 1 }] }, 'invalid_text'],
    ['two texts', { model: 'm', content: [text, text] }, 'duplicate_text'],
    ['image_url without url', { model: 'm', content: [{ type: 'image_url', image_url: {} }] }, 'invalid_image_url_item'],
    ['bad role', { model: 'm', content: [image('middle_frame')] }, 'invalid_image_role'],
    ['two first frames', { model: 'm', content: [image('first_frame'), image()] }, 'duplicate_first_frame'],
    ['two last frames', { model: 'm', content: [image('first_frame'), image('last_frame'), image('last_frame')] }, 'duplicate_last_frame'],
    [
      'not an image',
      { model: 'm', content: [image('first_frame', `data:image/png;base64,${Buffer.from('nope nope').toString('base64')}`)] },
      'invalid_image_data',
    ],
    ['data URL type lie', { model: 'm', content: [image('first_frame', png.replace('image/png', 'image/jpeg'))] }, 'image_mime_mismatch'],
    ['unknown item field', { model: 'm', content: [{ ...text, role: 'x' }] }, 'unsupported_field'],
    ['unknown field (seed)', { model: 'm', content: [text], seed: 1 }, 'unsupported_field'],
    ['generate_audio string', { model: 'm', content: [text], generate_audio: 'true' }, 'invalid_generate_audio'],
    ['negative priority', { model: 'm', content: [text], priority: -1 }, 'invalid_priority'],
    ['service_tier premium', { model: 'm', content: [text], service_tier: 'premium' }, 'invalid_service_tier'],
    ['expires too short', { model: 'm', content: [text], execution_expires_after: 60 }, 'invalid_execution_expires_after'],
    ['expires too long', { model: 'm', content: [text], execution_expires_after: 259201 }, 'invalid_execution_expires_after'],
  ])('%s → %s', async (_n, body, code) => expect(await codeOf(body)).toBe(code));
});
