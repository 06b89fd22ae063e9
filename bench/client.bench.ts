/**
 * The client as a visitor's browser gets it: the landing route's JavaScript gzipped, and Lighthouse
 * (performance, accessibility, best practices, SEO) in Debian's Chromium with its mobile and desktop
 * presets against `/` and a tool page, served by a gateway process from the built client. The anchor,
 * in the same run and the same browser: the same Lighthouse runs against an empty HTML page (what
 * this machine scores) and a page of the same gzipped bytes with nothing to run, from a plain
 * static server. Several runs each, interleaved; the table shows medians, and for each Duet row
 * under 90 the audits that cost the points, from Lighthouse's median run.
 *
 *   npm run bench -- client [--runs 5] [--build] [--save <dir>] [--root ../duet-before] [--pages /,/main] [--quick]
 *
 * `--build` rebuilds the client first (otherwise only when client/dist is missing); `--save` writes
 * each row's median-run report (HTML and JSON) to `<dir>`; `--root` measures another checkout (its
 * gateway and its client/dist), e.g. to compare before and after a change; `--pages` measures other
 * routes than `/` and the quiz page (comma separated paths); `--quick` is two runs of
 * `/` and of the empty page, on mobile.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateReport } from 'lighthouse';
import type { Result } from 'lighthouse';
import { computeMedianRun, filterToValidRuns } from 'lighthouse/core/lib/median-run.js';
import { startGatewayProcess } from '../test/helpers/gateway-process.ts';
import { ensureClientBuilt, measureLandingBundle } from './landing-bundle.ts';
import { startAnchorPages } from './lib/anchor-pages.ts';
import type { AnchorPages } from './lib/anchor-pages.ts';
import { costsOf, formatCosts } from './lib/lighthouse-costs.ts';
import { CHROMIUM_PATH, figuresOf, launchChromium, medianFigures, runLighthouse } from './lib/lighthouse-run.ts';
import type { Preset } from './lib/lighthouse-run.ts';
import { machineLine, round } from './lib/stats.ts';

/** The issue's target for the performance score. */
const TARGET = 90;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    build: { type: 'boolean', default: false },
    save: { type: 'string' },
    root: { type: 'string' },
    pages: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
const ROOT = values.root ? path.resolve(values.root) : fileURLToPath(new URL('..', import.meta.url));
const CLIENT_DIST = ensureClientBuilt(ROOT, values.build);
// --quick: two runs, so that one Lighthouse run Chromium could not score still leaves a figure.
const RUNS = values.quick ? 2 : Math.max(1, Number(values.runs));
const PRESETS: Preset[] = values.quick ? ['mobile'] : ['mobile', 'desktop'];
const DUET_PAGES = values.pages
  ? values.pages.split(',').map((p) => p.trim()).filter(Boolean)
  : values.quick
    ? ['/']
    : ['/', '/quiz-solving-duet'];
const started = performance.now();

interface Target {
  /** The Duet page's path, or what the anchor page is. */
  page: string;
  anchor: boolean;
  url: string;
  preset: Preset;
  runs: Result[];
}

const bundle = measureLandingBundle(CLIENT_DIST);

/** Every target's runs, interleaved: round after round over all, so a slow spell of the machine touches them alike. */
async function measure(): Promise<{ targets: Target[]; chromium: string; anchor: AnchorPages }> {
  const gateway = await startGatewayProcess({ env: { CLIENT_DIST }, root: values.root ? ROOT : undefined });
  const stops: Array<() => Promise<void>> = [() => gateway.stop()];
  try {
    const anchor = await startAnchorPages({ jsGzip: bundle.jsGzip, cssGzip: bundle.cssGzip });
    stops.push(() => anchor.stop());
    const chromium = await launchChromium();
    stops.push(() => chromium.kill());
    const targets: Target[] = PRESETS.flatMap((preset) => [
      { page: 'anchor: empty HTML page', anchor: true, url: `${anchor.url}/empty`, preset, runs: [] },
      ...(values.quick ? [] : [{ page: 'anchor: same bytes, nothing to run', anchor: true, url: `${anchor.url}/same-bytes`, preset, runs: [] }]),
      ...DUET_PAGES.map((page) => ({ page, anchor: false, url: `${gateway.url}${page}`, preset, runs: [] })),
    ]);
    // A fresh browser's and gateway's first page load is slower: one unrecorded run first.
    await runLighthouse(chromium.port, `${gateway.url}/`, 'mobile');
    for (let run = 1; run <= RUNS; run++) {
      for (const target of targets) {
        const t0 = performance.now();
        target.runs.push(await runLighthouse(chromium.port, target.url, target.preset));
        console.error(`run ${run}/${RUNS} · ${target.page} · ${target.preset}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
    }
    return { targets, chromium: chromium.version, anchor };
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

const { targets, chromium, anchor } = await measure();

const rows = targets.map((t) => {
  const perRun = t.runs.map(figuresOf);
  // Lighthouse's own pick of a representative run (closest to the median FCP and TTI) for the
  // audits, among the runs that measured both.
  const valid = filterToValidRuns(t.runs);
  const medianRun = valid.length > 0 ? computeMedianRun(valid) : null;
  if (values.save && medianRun) {
    mkdirSync(values.save, { recursive: true });
    const name = `${t.anchor ? 'anchor-' : ''}${new URL(t.url).pathname.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}-${t.preset}`;
    writeFileSync(path.join(values.save, `${name}.report.html`), generateReport(medianRun, 'html'));
    writeFileSync(path.join(values.save, `${name}.report.json`), JSON.stringify(medianRun));
  }
  return {
    page: t.page,
    preset: t.preset,
    anchor: t.anchor,
    performanceRuns: perRun.map((f) => f.performance),
    clsRuns: perRun.map((f) => f.cls),
    median: medianFigures(perRun),
    unmeasured: t.runs.length - valid.length,
    costs: t.anchor || !medianRun ? [] : costsOf(medianRun, TARGET),
    warnings: [...new Set(t.runs.flatMap((r) => [...r.runWarnings.map(String), ...(r.runtimeError ? [r.runtimeError.message] : [])]))],
  };
});

const first = targets[0]!.runs[0]!;
const seconds = round((performance.now() - started) / 1000, 0);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const num = (x: number | null, digits = 0) => (x === null ? '–' : x.toFixed(digits));

console.log(
  `\n${await machineLine()} · ${chromium} (${CHROMIUM_PATH}) · Lighthouse ${first.lighthouseVersion} · ` +
    `CPU benchmark index ${Math.round(first.environment.benchmarkIndex)} · ${RUNS} run${RUNS > 1 ? 's' : ''} each, medians · ${seconds} s`,
);
console.log(
  `\nlanding route \`/\` before it can draw: JavaScript ${kb(bundle.jsGzip)} KB gzipped, CSS ${kb(bundle.cssGzip)} KB gzipped, ${bundle.files.length} files` +
    ` (the same-bytes anchor: ${kb(anchor.jsGzip)} KB of script and ${kb(anchor.cssGzip)} KB of stylesheet, gzipped)`,
);
console.log('\n| page | preset | performance | accessibility | best practices | SEO | FCP (ms) | LCP (ms) | TBT (ms) | CLS | Speed Index (ms) |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const m = r.median;
  const perf = !r.anchor && m.performance !== null && m.performance < TARGET ? `**${m.performance}**` : num(m.performance);
  const page = r.anchor ? r.page : `Duet \`${r.page}\``;
  console.log(
    `| ${page} | ${r.preset} | ${perf} | ${num(m.accessibility)} | ${num(m.bestPractices)} | ${num(m.seo)} | ` +
      `${num(m.fcpMs)} | ${num(m.lcpMs)} | ${num(m.tbtMs)} | ${num(m.cls, 3)} | ${num(m.speedIndexMs)} |`,
  );
}
if (RUNS > 1) {
  console.log('\nperformance score (and CLS) per run, in run order:');
  for (const r of rows) {
    console.log(`- ${r.page}, ${r.preset}: ${r.performanceRuns.map((x, i) => `${num(x)} (${num(r.clsRuns[i] ?? null, 3)})`).join(', ')}`);
  }
}
for (const r of rows.filter((row) => row.costs.length > 0)) {
  console.log(`\n**${r.page}, ${r.preset}**: what costs the points (categories under ${TARGET}; Lighthouse's median run)`);
  console.log(formatCosts(r.costs).join('\n'));
}
for (const r of rows.filter((row) => row.warnings.length > 0 || row.unmeasured > 0)) {
  const unmeasured = r.unmeasured > 0 ? `${r.unmeasured} of ${RUNS} runs measured no FCP or TTI (not used to pick the median run); ` : '';
  console.log(`\n${r.page}, ${r.preset}: ${unmeasured}Lighthouse warned: ${r.warnings.join(' | ') || 'nothing'}`);
}

console.log(
  JSON.stringify({
    date: new Date().toISOString().slice(0, 10),
    chromium,
    lighthouse: first.lighthouseVersion,
    benchmarkIndex: Math.round(first.environment.benchmarkIndex),
    runs: RUNS,
    seconds,
    landingJsGzip: bundle.jsGzip,
    landingCssGzip: bundle.cssGzip,
    rows: rows.map((r) => ({ page: r.page, preset: r.preset, anchor: r.anchor, performanceRuns: r.performanceRuns, clsRuns: r.clsRuns, unmeasured: r.unmeasured, ...r.median })),
  }),
);
process.exit(0);
