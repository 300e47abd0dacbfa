import {
  unsupportedSetting,
  type CallContext,
  type SpeechModelPort,
  type SpeechRequest,
  type SpeechResult,
  type SpeechStreamPart,
  type UpstreamClient,
  type UpstreamResponse,
  type Warning,
} from '@gateway/provider-kit';

/** Audio past this is no speech answer (4,096 characters at the slowest speed is well under it). */
const MAX_AUDIO_BYTES = 256 * 1024 * 1024;

/** The media types the gateway answers with (OpenAI labels opus `audio/opus`; the file is Ogg). */
const MEDIA_TYPES = { mp3: 'audio/mpeg', opus: 'audio/ogg', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm' };

/** tts-1 and tts-1-hd take no instructions (OpenAI refuses them there). */
const takesInstructions = (model: string) => !/^tts-1(-hd)?(-|$)/.test(model);

/**
 * `POST /audio/speech`: the audio comes back in the requested format, read as it arrives; the upstream is always
 * asked for the audio itself (the gateway makes its own events), so tts-1, which has no SSE, streams too.
 */
export class OpenAiSpeechModel implements SpeechModelPort {
  constructor(private readonly http: UpstreamClient) {}

  private send(req: SpeechRequest, signal: AbortSignal): { res: Promise<UpstreamResponse>; warnings: Warning[] } {
    const warnings: Warning[] = [];
    const instructions = req.instructions && takesInstructions(req.model) ? req.instructions : undefined;
    if (req.instructions && !instructions) warnings.push(unsupportedSetting('instructions', `${req.model} takes no instructions.`));
    const json = {
      model: req.model,
      input: req.input,
      voice: req.voice,
      response_format: req.format,
      ...(instructions ? { instructions } : {}),
      ...(req.speed !== undefined && req.speed !== 1 ? { speed: req.speed } : {}),
    };
    return {
      res: this.http.request({ method: 'POST', path: '/audio/speech', json, headers: { accept: 'application/octet-stream' }, signal }),
      warnings,
    };
  }

  async speak(req: SpeechRequest, ctx: CallContext): Promise<SpeechResult> {
    const { res, warnings } = this.send(req, ctx.signal);
    const answer = await res;
    const audio = await answer.bytes(MAX_AUDIO_BYTES, 'a speech answer');
    return { audio, mediaType: MEDIA_TYPES[req.format], warnings, ...(answer.requestId ? { upstreamRequestId: answer.requestId } : {}) };
  }

  async *stream(req: SpeechRequest, ctx: CallContext): AsyncGenerator<SpeechStreamPart> {
    const { res, warnings } = this.send(req, ctx.signal);
    if (warnings.length) yield { type: 'warnings', warnings };
    // body() ends the socket when this generator is left early (the client went away)
    for await (const data of (await res).body()) yield { type: 'audio', data };
    yield { type: 'finish', warnings };
  }
}
