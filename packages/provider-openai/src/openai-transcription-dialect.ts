import type { TranscriptionDialect } from '@gateway/provider-kit';

/** gpt-4o(-mini)-transcribe and gpt-transcribe: json or text only, and they stream; whisper-1 times, and ignores `stream`. */
const GPT_TRANSCRIBE = /^gpt-(4o-(mini-)?)?transcribe/;

export const OPENAI_TRANSCRIPTION_DIALECT: TranscriptionDialect = {
  textOnly: (model) => GPT_TRANSCRIBE.test(model),
  streams: (model) => GPT_TRANSCRIBE.test(model),
};
