/**
 * Draws the Teams app's two icons into teams-bot/icons/ (`npm run icons:teams`; the PNGs are committed):
 * - color.png, 192×192: a stack of three folded linens in white on the accent colour, inside Teams' 120×120 safe
 *   area, every pixel opaque;
 * - outline.png, 32×32: the same stack in white on a transparent background, as Teams requires of the outline icon.
 * Shapes are drawn 4×4 supersampled, so edges are smooth; the same input always gives the same bytes.
 *
 *   tsx scripts/teams-icons.ts [outDir]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The manifest's accentColor. */
const ACCENT = [0x1f, 0x6f, 0x8b] as const;
const SAMPLES = 4;

/** A rounded rectangle in a unit square: x, y, width, height and corner radius as fractions of the side. */
type Shape = { x: number; y: number; w: number; h: number; r: number };

/** Three folded linens, each a little narrower than the one below, with a fold line across the top one. */
const STACK: Shape[] = [
  { x: 0.12, y: 0.6, w: 0.76, h: 0.2, r: 0.05 },
  { x: 0.16, y: 0.38, w: 0.68, h: 0.2, r: 0.05 },
  { x: 0.2, y: 0.16, w: 0.6, h: 0.2, r: 0.05 },
];

function inside(s: Shape, px: number, py: number): boolean {
  if (px < s.x || px > s.x + s.w || py < s.y || py > s.y + s.h) return false;
  const cx = Math.min(Math.max(px, s.x + s.r), s.x + s.w - s.r);
  const cy = Math.min(Math.max(py, s.y + s.r), s.y + s.h - s.r);
  return (px - cx) ** 2 + (py - cy) ** 2 <= s.r ** 2;
}

/** How much of pixel (x, y) of a size×size image the stack covers, 0 to 1, within `margin` of each side. */
function coverage(x: number, y: number, size: number, margin: number): number {
  let hits = 0;
  for (let sy = 0; sy < SAMPLES; sy++) {
    for (let sx = 0; sx < SAMPLES; sx++) {
      const px = ((x + (sx + 0.5) / SAMPLES) / size - margin) / (1 - 2 * margin);
      const py = ((y + (sy + 0.5) / SAMPLES) / size - margin) / (1 - 2 * margin);
      if (STACK.some((s) => inside(s, px, py))) hits++;
    }
  }
  return hits / (SAMPLES * SAMPLES);
}

function draw(size: number, margin: number, pixel: (cover: number) => [number, number, number, number]): Buffer {
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const [r, g, b, a] = pixel(coverage(x, y, size, margin));
      png.data[i] = r;
      png.data[i + 1] = g;
      png.data[i + 2] = b;
      png.data[i + 3] = a;
    }
  }
  return PNG.sync.write(png, { colorType: 6 });
}

const mix = (from: number, to: number, t: number) => Math.round(from + (to - from) * t);

/** 192×192, opaque: white linens on the accent colour, the stack within the central 120×120. */
export const colorIcon = () =>
  draw(192, 36 / 192, (c) => [mix(ACCENT[0], 255, c), mix(ACCENT[1], 255, c), mix(ACCENT[2], 255, c), 255]);

/** 32×32: white linens, the rest transparent (partial coverage as partial alpha). */
export const outlineIcon = () => draw(32, 1 / 32, (c) => [255, 255, 255, Math.round(255 * c)]);

async function main(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'color.png'), colorIcon());
  await writeFile(join(outDir, 'outline.png'), outlineIcon());
  console.log(`wrote ${join(outDir, 'color.png')} and ${join(outDir, 'outline.png')}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(resolve(process.argv[2] ?? join(ROOT, 'teams-bot', 'icons'))).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  });
}
