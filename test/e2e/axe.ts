import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  nodes: number;
  target: string;
}

/** axe-core's WCAG 2.1 A and AA rules on the page as it is now (evaluated through the debugging protocol: the CSP forbids injected scripts). */
export async function wcagViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.length, target: v.nodes[0]?.target.join(' ') ?? '' }));
  });
}
