/**
 * Lighthouse in Debian's Chromium, with nothing fetched from outside this machine: Chromium is
 * `/usr/bin/chromium` (or `CHROMIUM_PATH`) with the browser tests' flags and no others, and
 * Lighthouse runs in this process against it over the DevTools port.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import type { Config, Result } from 'lighthouse';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags `test/e2e/browser.ts` starts Chromium with, headless. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type Preset = 'mobile' | 'desktop';

/** Lighthouse's own presets: the default config is the mobile one (Moto G Power, slow 4G, 4× CPU slowdown). */
const PRESETS: Record<Preset, Config | undefined> = { mobile: undefined, desktop: desktopConfig };

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

export interface Chromium {
  port: number;
  /** As the browser reports it, e.g. `HeadlessChrome/156.0.8078.79`. */
  version: string;
  kill: () => Promise<void>;
}

/**
 * Starts Chromium with exactly {@link CHROMIUM_FLAGS} (chrome-launcher's defaults off); chrome-launcher
 * adds only the DevTools port and a temporary profile, which it removes on kill.
 */
export async function launchChromium(): Promise<Chromium> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROMIUM_FLAGS,
    ignoreDefaultFlags: true,
    logLevel: 'silent',
  });
  const info = (await fetch(`http://127.0.0.1:${chrome.port}/json/version`).then((r) => r.json())) as { Browser?: string };
  return { port: chrome.port, version: info.Browser ?? 'unknown', kill: async () => chrome.kill() };
}

/**
 * One Lighthouse navigation of `url` with a preset; throws if Lighthouse returns nothing. Run from
 * code, Lighthouse reports no errors to its authors (only its CLI asks to) and fetches nothing itself.
 */
export async function runLighthouse(port: number, url: string, preset: Preset): Promise<Result> {
  const run = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
    PRESETS[preset],
  );
  if (!run) throw new Error(`Lighthouse returned no result for ${url} (${preset})`);
  return run.lhr;
}

/** The figures of one run: category scores 0–100 (null when Lighthouse could not score) and the metrics. */
export interface LighthouseFigures {
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  fcpMs: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  speedIndexMs: number | null;
}

const median = (xs: Array<number | null>): number | null => {
  const known = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (known.length === 0) return null;
  const mid = known.length / 2;
  return known.length % 2 === 1 ? known[Math.floor(mid)]! : (known[mid - 1]! + known[mid]!) / 2;
};

/** Each figure's median over several runs of one page and preset (runs Lighthouse could not score left out). */
export function medianFigures(runs: readonly LighthouseFigures[]): LighthouseFigures {
  const m = (key: keyof LighthouseFigures) => median(runs.map((r) => r[key]));
  return {
    performance: m('performance'),
    accessibility: m('accessibility'),
    bestPractices: m('bestPractices'),
    seo: m('seo'),
    fcpMs: m('fcpMs'),
    lcpMs: m('lcpMs'),
    tbtMs: m('tbtMs'),
    cls: m('cls'),
    speedIndexMs: m('speedIndexMs'),
  };
}

const score = (lhr: Result, id: string): number | null => {
  const s = lhr.categories[id]?.score;
  return s === null || s === undefined ? null : Math.round(s * 100);
};
const numeric = (lhr: Result, id: string): number | null => lhr.audits[id]?.numericValue ?? null;

export function figuresOf(lhr: Result): LighthouseFigures {
  return {
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
    seo: score(lhr, 'seo'),
    fcpMs: numeric(lhr, 'first-contentful-paint'),
    lcpMs: numeric(lhr, 'largest-contentful-paint'),
    tbtMs: numeric(lhr, 'total-blocking-time'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    speedIndexMs: numeric(lhr, 'speed-index'),
  };
}
