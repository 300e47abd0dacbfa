import type { Principal } from '../auth';
import type { ModelSpec } from '../catalogue';
import { invalid } from '../errors';
import type { SpeechModelPort } from '../ports/speech-model.port';
import type { SpeechRequest, SpeechResult, SpeechStreamPart } from '../speech';
import type { Warning } from '../warnings';
import type { RoutedCallDeps } from './deployment-selection';
import { MeteredUseCase, meteredAnswer, type KindProviderLookup, type Metered } from './metered-call';
import type { RoutedCallMeta } from './usage-record';

/** OpenAI's limits, held for every upstream before it is called. */
export const SPEECH_LIMITS = Object.freeze({ maxInputCharacters: 4096, maxInstructionsCharacters: 4096, minSpeed: 0.25, maxSpeed: 4 });

/** A speech request as the formats decode it. */
export type SpeechCommand = Omit<SpeechRequest, 'model'>;

const characters = (text: string) => [...text].length;

export function checkSpeechCommand(c: SpeechCommand): void {
  const n = characters(c.input);
  if (n === 0) throw invalid('invalid_input', '"input" must not be empty.', 'input');
  if (n > SPEECH_LIMITS.maxInputCharacters)
    throw invalid('input_too_long', `"input" has ${n} characters; at most ${SPEECH_LIMITS.maxInputCharacters} are allowed.`, 'input');
  if (c.instructions && characters(c.instructions) > SPEECH_LIMITS.maxInstructionsCharacters)
    throw invalid(
      'instructions_too_long',
      `"instructions" may have at most ${SPEECH_LIMITS.maxInstructionsCharacters} characters.`,
      'instructions',
    );
  if (c.speed !== undefined && !(c.speed >= SPEECH_LIMITS.minSpeed && c.speed <= SPEECH_LIMITS.maxSpeed))
    throw invalid('invalid_speed', `"speed" must be between ${SPEECH_LIMITS.minSpeed} and ${SPEECH_LIMITS.maxSpeed}.`, 'speed');
}

/** Speech is billed by the characters of its input: the gateway counts them exactly, whatever the upstream says. */
function metered(r: SpeechRequest, answer?: { warnings: Warning[]; upstreamRequestId?: string }): Metered {
  return meteredAnswer({ characters: characters(r.input) }, false, answer);
}

/** A port without a stream: its whole answer as one chunk. */
async function* whole(
  port: SpeechModelPort,
  request: SpeechRequest,
  ctx: Parameters<SpeechModelPort['speak']>[1],
): AsyncGenerator<SpeechStreamPart> {
  const r = await port.speak(request, ctx);
  yield { type: 'audio', data: r.audio };
  yield { type: 'finish', warnings: r.warnings };
}

/**
 * Speech: the command checked against the limits, then a metered call (metered-call.ts) priced per million
 * characters. Audio is streamed as the upstream makes it; leaving the stream closes the upstream.
 */
export class Speech extends MeteredUseCase<SpeechModelPort, SpeechRequest, SpeechResult, SpeechStreamPart> {
  constructor(deps: RoutedCallDeps, providers: KindProviderLookup<SpeechModelPort>) {
    super(deps, providers, {
      kind: 'speech',
      operation: 'speech',
      call: (port, request, ctx) => port.speak(request, ctx),
      measure: (answer, request) => metered(request, answer),
      estimate: (request) => metered(request),
      open: (port, request, ctx) => (port.stream ? port.stream(request, ctx) : whole(port, request, ctx)),
      measurePart: (part, request) => (part.type === 'finish' ? metered(request, part) : undefined),
    });
  }

  answer(principal: Principal, model: ModelSpec, command: SpeechCommand, meta: RoutedCallMeta): Promise<SpeechResult> {
    checkSpeechCommand(command);
    return this.calls.answer(principal, model, { ...command, model: model.id }, meta);
  }

  stream(principal: Principal, model: ModelSpec, command: SpeechCommand, meta: RoutedCallMeta): AsyncGenerator<SpeechStreamPart> {
    checkSpeechCommand(command);
    return this.calls.stream(principal, model, { ...command, model: model.id }, meta);
  }
}
