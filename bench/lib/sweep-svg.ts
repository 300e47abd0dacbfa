import type { BenchResults } from '../run';

/** bench/results/sweep.svg: requests per second of each target at each concurrency, as grouped bars. */
export function renderSweepSvg(r: BenchResults): string {
  const names = Object.keys(r.sweep);
  const colors: Record<string, string> = {
    direct: '#888',
    bare: '#3a3',
    gateway: '#2a7ae2',
    portkey: '#e2742a',
  };
  const cs = [1, 16, 128];
  const max = Math.max(...names.flatMap((n) => cs.map((c) => r.sweep[n]![c]!.rps)));
  const W = 640,
    H = 320,
    left = 60,
    bottom = 40,
    top = 30;
  const groupW = (W - left - 20) / cs.length;
  const barW = (groupW - 20) / names.length;
  const y = (v: number) => top + (H - top - bottom) * (1 - v / max);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<text x="${W / 2}" y="18" text-anchor="middle" font-size="14">Non-streaming requests/s by concurrency</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    parts.push(
      `<line x1="${left}" x2="${W - 20}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/><text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(0)}</text>`,
    );
  }
  cs.forEach((c, gi) => {
    const gx = left + gi * groupW + 10;
    names.forEach((n, ni) => {
      const v = r.sweep[n]![c]!.rps;
      parts.push(
        `<rect x="${gx + ni * barW}" y="${y(v)}" width="${barW - 4}" height="${H - bottom - y(v)}" fill="${colors[n] ?? '#555'}"><title>${n} c=${c}: ${v.toFixed(0)}</title></rect>`,
      );
    });
    parts.push(`<text x="${gx + groupW / 2 - 10}" y="${H - bottom + 16}" text-anchor="middle">c=${c}</text>`);
  });
  names.forEach((n, i) =>
    parts.push(
      `<rect x="${left + i * 110}" y="${H - 16}" width="10" height="10" fill="${colors[n] ?? '#555'}"/><text x="${left + i * 110 + 14}" y="${H - 7}">${n}</text>`,
    ),
  );
  parts.push('</svg>');
  return parts.join('\n');
}
