import type { GatewayConfigFile } from './config';

/** What a newcomer gets with no GATEWAY_CONFIG: the simulator's models, all in group `default`. */
export const DEFAULT_CONFIG: GatewayConfigFile = {
  providers: [{ id: 'sim', type: 'simulator', options: { queuedMs: 300, videoLatencyMs: 1500 } }],
  models: [
    {
      id: 'sim-chat',
      kind: 'text',
      provider: 'sim',
      reasoningEfforts: ['none', 'minimal', 'low', 'medium', 'high'],
      // coding agents (Claude Code, Codex CLI, Gemini CLI) and frameworks ask for their own default ids
      aliases: ['claude-*', 'gpt-*', 'o1*', 'o3*', 'o4*', 'codex-*', 'gemini-*'],
    },
    {
      id: 'sim-image',
      kind: 'image',
      provider: 'sim',
      aliases: ['gpt-image-*', 'dall-e-*', 'imagen-*', 'gemini-*-image*'],
      // The simulator encodes PNG and JPEG in pure JS; WebP needs native code, so it is not offered (a clean 400).
      image: {
        sizes: ['auto', '1024x1024', '1536x1024', '1024x1536', '256x256', '512x512'], // the first concrete size is the default
        qualities: ['auto', 'low', 'medium', 'high', 'standard', 'hd'],
        outputFormats: ['png', 'jpeg'],
        styles: ['vivid', 'natural'],
        backgrounds: ['auto', 'opaque', 'transparent'],
        stream: true,
        maxPartialImages: 3,
        edits: true,
      },
    },
    { id: 'sim-video-2.5', kind: 'video', family: '2.5', tier: 'standard', provider: 'sim', aliases: ['veo-*', 'sora-*'] },
    { id: 'sim-video-2.0', kind: 'video', family: '2.0', tier: 'standard', provider: 'sim' },
    { id: 'sim-video-2.0-fast', kind: 'video', family: '2.0', tier: 'fast', provider: 'sim' },
    { id: 'sim-video-2.0-mini', kind: 'video', family: '2.0', tier: 'mini', provider: 'sim' },
    // the SDKs' own default ids of each kind route to the simulator's model of that kind
    { id: 'sim-embed', kind: 'embedding', provider: 'sim', aliases: ['text-embedding-*', 'gemini-embedding-*', 'embedding-*', 'embed-*'] },
    { id: 'sim-speech', kind: 'speech', provider: 'sim', aliases: ['tts-*', 'gpt-4o-mini-tts*'] },
    {
      id: 'sim-transcribe',
      kind: 'transcription',
      provider: 'sim',
      aliases: ['whisper-*', 'gpt-4o-transcribe*', 'gpt-4o-mini-transcribe*'],
    },
    { id: 'sim-rerank', kind: 'rerank', provider: 'sim', aliases: ['rerank-*', 'jina-reranker-*'] },
    { id: 'sim-moderation', kind: 'moderation', provider: 'sim', aliases: ['omni-moderation-*', 'text-moderation-*'] },
  ],
  groups: [{ name: 'default', models: ['*'] }],
  keys: [],
  // the built-in MCP server: echo, get_weather, generate_image (docs/mcp.md)
  mcpServers: [{ id: 'sim', url: 'builtin:simulator' }],
};

export const DEMO_ACCOUNT = 'demo';
export const DEMO_GROUP = 'default';
