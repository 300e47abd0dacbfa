/** Colors the simulator reads from a prompt: on the event loop, apart from the pixel codecs (image-pixels.ts). */
import { hash } from './simulated-arguments';

export type Rgb = [number, number, number];

/** A color word in the prompt becomes the color of the main shape, or of the edit. */
const COLOR_WORDS: Record<string, Rgb> = {
  red: [220, 40, 40],
  orange: [245, 140, 30],
  yellow: [245, 215, 40],
  green: [50, 170, 70],
  blue: [40, 90, 220],
  purple: [130, 60, 190],
  violet: [140, 80, 220],
  pink: [240, 120, 180],
  white: [250, 250, 250],
  black: [15, 15, 15],
  gray: [128, 128, 128],
  grey: [128, 128, 128],
  brown: [130, 80, 40],
  cyan: [40, 200, 220],
  magenta: [210, 40, 190],
  teal: [30, 140, 140],
  gold: [212, 175, 55],
  silver: [192, 192, 192],
};

export function promptColor(prompt: string): Rgb | undefined {
  for (const word of prompt.toLowerCase().match(/[a-z]+/g) ?? []) if (COLOR_WORDS[word]) return COLOR_WORDS[word];
  return undefined;
}

/** A saturated color picked by the hash of a seed. */
export function hashedColor(seed: string): Rgb {
  const h = hash(seed);
  const hue = (h % 360) / 60;
  const x = 1 - Math.abs((hue % 2) - 1);
  const [r, g, b] = hue < 1 ? [1, x, 0] : hue < 2 ? [x, 1, 0] : hue < 3 ? [0, 1, x] : hue < 4 ? [0, x, 1] : hue < 5 ? [x, 0, 1] : [1, 0, x];
  const lift = 40 + ((h >>> 9) % 60);
  return [Math.round(lift + r * (215 - lift)), Math.round(lift + g * (215 - lift)), Math.round(lift + b * (215 - lift))];
}
