/** One level of the crowd benchmark, as the chart needs it. */
export interface CrowdPoint {
  battles: number;
  lagP99Ms: number;
  anchorLagP99Ms: number;
  cpuUsPerToken: number;
  anchorCpuUsPerToken: number;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * Two small line charts side by side, Duet against its anchor at each crowd size: every token's
 * delivery lag at p99, and CPU per delivered token. A plain SVG with a title and text labels, so
 * it reads in a browser, on GitHub and with a screen reader.
 */
export function crowdChart(points: CrowdPoint[]): string {
  const W = 360;
  const H = 240;
  const pad = { left: 56, right: 16, top: 36, bottom: 44 };
  const panel = (x0: number, title: string, unit: string, duet: number[], anchor: number[]) => {
    const xs = points.map((p) => p.battles);
    const maxY = Math.max(1, ...duet, ...anchor) * 1.1;
    const px = (i: number) => x0 + pad.left + ((W - pad.left - pad.right) * i) / Math.max(1, xs.length - 1);
    const py = (v: number) => pad.top + (H - pad.top - pad.bottom) * (1 - v / maxY);
    const line = (ys: number[]) => ys.map((y, i) => `${i ? 'L' : 'M'}${px(i).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
    const ticks = [0, 0.5, 1].map((f) => maxY * f);
    return [
      `<text x="${x0 + W / 2}" y="20" text-anchor="middle" font-weight="600">${escape(title)}</text>`,
      ...ticks.map(
        (t) =>
          `<line x1="${x0 + pad.left}" x2="${x0 + W - pad.right}" y1="${py(t)}" y2="${py(t)}" stroke="#e2e8f0"/><text x="${x0 + pad.left - 6}" y="${py(t) + 4}" text-anchor="end" font-size="11">${Math.round(t)}</text>`,
      ),
      ...xs.map((x, i) => `<text x="${px(i)}" y="${H - pad.bottom + 16}" text-anchor="middle" font-size="11">${x}</text>`),
      `<text x="${x0 + W / 2}" y="${H - 8}" text-anchor="middle" font-size="11">battles at once (${escape(unit)})</text>`,
      `<path d="${line(anchor)}" fill="none" stroke="#94a3b8" stroke-width="2" stroke-dasharray="5 4"/>`,
      `<path d="${line(duet)}" fill="none" stroke="#4f46e5" stroke-width="2.5"/>`,
      ...duet.map((y, i) => `<circle cx="${px(i)}" cy="${py(y)}" r="3" fill="#4f46e5"><title>${xs[i]} battles: Duet ${y}, anchor ${anchor[i]}</title></circle>`),
    ].join('\n');
  };
  const body = [
    panel(0, 'Token delivery lag, p99', 'ms', points.map((p) => p.lagP99Ms), points.map((p) => p.anchorLagP99Ms)),
    panel(W, 'CPU per delivered token', 'µs', points.map((p) => p.cpuUsPerToken), points.map((p) => p.anchorCpuUsPerToken)),
    `<g font-size="12"><line x1="${W - 200}" x2="${W - 176}" y1="${H + 14}" y2="${H + 14}" stroke="#4f46e5" stroke-width="2.5"/><text x="${W - 170}" y="${H + 18}">Duet (gateway + workers)</text>`,
    `<line x1="${W}" x2="${W + 24}" y1="${H + 14}" y2="${H + 14}" stroke="#94a3b8" stroke-width="2" stroke-dasharray="5 4"/><text x="${W + 30}" y="${H + 18}">anchor (the provider read directly)</text></g>`,
  ].join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${2 * W} ${H + 30}" width="${2 * W}" height="${H + 30}" role="img" aria-labelledby="crowd-title" font-family="system-ui, sans-serif" fill="#1e293b">
<title id="crowd-title">Duet under a crowd: token delivery lag at p99 and CPU per delivered token, against the anchor, at ${points.map((p) => p.battles).join(', ')} battles at once</title>
<rect width="100%" height="100%" fill="#ffffff"/>
${body}
</svg>
`;
}
