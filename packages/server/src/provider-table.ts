import { anthropicProvider } from '@gateway/provider-anthropic';
import { arkProvider } from '@gateway/provider-ark';
import { cohereProvider } from '@gateway/provider-cohere';
import { dashscopeProvider } from '@gateway/provider-dashscope';
import { googleProvider } from '@gateway/provider-google';
import { klingProvider } from '@gateway/provider-kling';
import { minimaxProvider } from '@gateway/provider-minimax';
import { openAiProvider } from '@gateway/provider-openai';
import { openAiCompatibleProvider } from '@gateway/provider-openai-compatible';
import { runwayProvider } from '@gateway/provider-runway';
import { simulatorProvider } from '@gateway/provider-simulator';
import { voyageProvider } from '@gateway/provider-voyage';

/**
 * Every provider type this build can run: adding a provider is its package plus one line here. The config
 * schema's `providers[]` part, the `type` union and the registry's factories are all derived from this list.
 */
export const PROVIDER_DESCRIPTORS = [
  simulatorProvider,
  openAiProvider,
  anthropicProvider,
  googleProvider,
  openAiCompatibleProvider,
  arkProvider,
  klingProvider,
  minimaxProvider,
  dashscopeProvider,
  runwayProvider,
  cohereProvider,
  voyageProvider,
] as const;

export type ProviderType = (typeof PROVIDER_DESCRIPTORS)[number]['type'];
