import type { CallContext, ImageModelPort } from '@gateway/provider-kit';

/** The MCP shapes the simulator answers in (the core's McpTool and McpToolResult, which reach adapters as plain JSON). */
type SimTool = {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
};
type SimResult = {
  content: unknown[];
  isError?: boolean;
  structuredContent?: unknown;
};

const object = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });

const TOOLS: SimTool[] = [
  { name: 'echo', description: 'Returns its input text.', inputSchema: object({ text: { type: 'string' } }, ['text']) },
  {
    name: 'get_weather',
    description: 'The weather of a city (a fixed answer per city).',
    inputSchema: object({ city: { type: 'string' } }, ['city']),
  },
  {
    name: 'generate_image',
    description: 'Draws an image for a prompt with the image simulator; answers it as MCP image content.',
    inputSchema: object({ prompt: { type: 'string' }, size: { type: 'integer', minimum: 16, maximum: 1024 } }, ['prompt']),
  },
];

const CONDITIONS = ['sunny', 'cloudy', 'rainy', 'windy', 'snowy', 'foggy'];

/** A fixed answer per city: the same city always has the same weather, different cities mostly differ. */
export function simulatedWeather(city: string): { city: string; temperatureC: number; conditions: string } {
  let h = 0;
  for (const ch of city.trim().toLowerCase()) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return { city: city.trim(), temperatureC: (h % 45) - 10, conditions: CONDITIONS[h % CONDITIONS.length]! };
}

const text = (t: string, isError = false): SimResult => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError } : {}) });

/**
 * The built-in MCP server `sim`, served in-process: `echo`, `get_weather` and `generate_image` (through the image
 * simulator). Deterministic, so tests and first tries see the same answers.
 */
export class SimulatorMcpServer {
  /** images: the image simulator's port, looked up per call (a catalogue reload may replace it) */
  constructor(private readonly images: () => ImageModelPort) {}

  async listTools(): Promise<SimTool[]> {
    return TOOLS.map((t) => ({ ...t }));
  }

  async callTool(name: string, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<SimResult> {
    const a = args ?? {};
    switch (name) {
      case 'echo':
        return typeof a.text === 'string' ? text(a.text) : text('"text" must be a string.', true);
      case 'get_weather': {
        if (typeof a.city !== 'string' || !a.city.trim()) return text('"city" must be a city name.', true);
        const w = simulatedWeather(a.city);
        return { ...text(`${w.city}: ${w.temperatureC} °C, ${w.conditions}`), structuredContent: w };
      }
      case 'generate_image': {
        if (typeof a.prompt !== 'string' || !a.prompt.trim()) return text('"prompt" must be a text.', true);
        const size = typeof a.size === 'number' && Number.isInteger(a.size) && a.size >= 16 && a.size <= 1024 ? a.size : 256;
        const request = { model: 'sim-image', prompt: a.prompt, n: 1, width: size, height: size, outputFormat: 'png' as const };
        const [image] = (await this.images().generate(request, ctx)).images;
        if (!image) return text('The image simulator drew nothing.', true);
        return { content: [{ type: 'image', data: Buffer.from(image.data).toString('base64'), mimeType: image.mediaType }] };
      }
      default:
        return text(`Unknown tool: ${name}.`, true);
    }
  }
}
