/**
 * What costs a page its points, read from one Lighthouse result: per category under a threshold,
 * the scored audits that lost the most (a category's score is the weighted mean of its audits),
 * and for each performance metric that lost points, the audits Lighthouse says would save time on
 * that metric, with the elements or files they name.
 */
import type { Result } from 'lighthouse';

type Audit = Result['audits'][string];

export interface Cause {
  id: string;
  title: string;
  displayValue: string;
  /** What Lighthouse estimates fixing it saves on the metric: ms, or layout shift for CLS. */
  saving: number;
  /** Elements (CSS selectors) or files it names, most costly first. */
  where: string[];
}

export interface AuditCost {
  id: string;
  title: string;
  displayValue: string;
  /** Points of the category's 100 this audit lost. */
  points: number;
  /** For a performance metric: FCP, LCP, TBT, CLS or SI. */
  acronym?: string | undefined;
  /** For a performance metric: the audits that would improve it. */
  causes: Cause[];
  where: string[];
}

export interface CategoryCosts {
  category: string;
  title: string;
  score: number;
  audits: AuditCost[];
}

/** At most this many lines each: the costliest audits, the causes per metric, the places per audit. */
const TOP = { audits: 6, causes: 4, where: 3 };
/** Lighthouse's passing line for an audit and the report's own. */
const PASS = 0.9;
/**
 * Lighthouse loads every page cold, so longer cache lifetimes cannot change its score (they help a
 * returning visitor); the cache insight still prices them in FCP and LCP. Left out of the causes.
 */
const NOT_A_COLD_LOAD_CAUSE = new Set(['cache-insight', 'uses-long-cache-ttl']);

type Item = Record<string, unknown>;

const isItem = (x: unknown): x is Item => typeof x === 'object' && x !== null;
const itemsOf = (x: unknown): Item[] => (isItem(x) && Array.isArray(x.items) ? x.items.filter(isItem) : []);

/** A readable place for one details row: the element's selector, else the file's path. */
function place(item: Item): string | null {
  const node = item.node;
  const url = typeof item.url === 'string' ? item.url : typeof item.href === 'string' ? item.href : null;
  let label: string | null = null;
  if (isItem(node) && typeof node.selector === 'string') label = node.selector;
  else if (url) label = url.startsWith('http') ? new URL(url).pathname : url;
  if (label && typeof item.text === 'string') label = `"${item.text}" → ${label}`;
  if (!label) return null;
  if (typeof item.score === 'number') return `${label} (shift ${item.score.toFixed(3)})`;
  if (typeof item.wastedMs === 'number' && item.wastedMs > 0) return `${label} (${Math.round(item.wastedMs)} ms)`;
  if (typeof item.wastedBytes === 'number' && item.wastedBytes > 0) return `${label} (${(item.wastedBytes / 1024).toFixed(0)} KiB)`;
  return label;
}

/** The elements or files an audit names, and for the LCP element its phases. */
export function placesOf(audit: Audit): string[] {
  const details: unknown = audit.details;
  if (!isItem(details)) return [];
  // A list holds tables (the LCP element, then its phases); a table or opportunity holds rows.
  const tables = details.type === 'list' ? itemsOf(details) : [details];
  const out: string[] = [];
  for (const table of tables) {
    const rows = itemsOf(table);
    if (rows.every((r) => typeof r.phase === 'string') && rows.length > 0) {
      out.push(rows.map((r) => `${String(r.phase)} ${Math.round(Number(r.timing))} ms`).join(', '));
      continue;
    }
    for (const row of rows) {
      const p = place(row);
      if (p && !out.includes(p)) out.push(p);
    }
  }
  return out.slice(0, TOP.where);
}

const text = (audit: Audit): string => audit.displayValue ?? '';

/** The audits with an estimated saving on `acronym` (FCP, LCP, TBT, CLS), largest first, one per finding. */
function causesOf(lhr: Result, acronym: string): Cause[] {
  const refs = lhr.categories.performance?.auditRefs ?? [];
  const candidates: Array<Cause & { insight: boolean }> = [];
  for (const ref of refs) {
    if (ref.group === 'metrics' || NOT_A_COLD_LOAD_CAUSE.has(ref.id)) continue;
    const audit = lhr.audits[ref.id];
    const saving = (audit?.metricSavings as Record<string, number | undefined> | undefined)?.[acronym] ?? 0;
    if (!audit || saving <= 0 || audit.score === null) continue;
    if (audit.score >= PASS && audit.scoreDisplayMode !== 'informative') continue;
    candidates.push({ id: ref.id, title: audit.title, displayValue: text(audit), saving, where: placesOf(audit), insight: ref.group === 'hidden' });
  }
  // Lighthouse 12 reports most findings twice, as an audit and as a (hidden) insight: keep the audit.
  candidates.sort((a, b) => b.saving - a.saving || Number(a.insight) - Number(b.insight));
  const kept: Cause[] = [];
  for (const c of candidates) {
    const twin = kept.some((k) => Math.abs(k.saving - c.saving) <= 0.01 * Math.max(k.saving, c.saving));
    if (c.insight && twin) continue;
    kept.push({ id: c.id, title: c.title, displayValue: c.displayValue, saving: c.saving, where: c.where });
  }
  return kept.slice(0, TOP.causes);
}

/** For each category scoring under `below` (0–100), the audits that cost it the most points. */
export function costsOf(lhr: Result, below = 90): CategoryCosts[] {
  const out: CategoryCosts[] = [];
  for (const [id, category] of Object.entries(lhr.categories)) {
    if (category.score === null || category.score * 100 >= below) continue;
    const total = category.auditRefs.reduce((n, r) => n + r.weight, 0);
    const audits: AuditCost[] = [];
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 1) continue;
      const points = (ref.weight * (1 - audit.score) * 100) / total;
      if (points < 0.5) continue;
      const causes = ref.acronym ? causesOf(lhr, ref.acronym) : [];
      audits.push({ id: ref.id, title: audit.title, displayValue: text(audit), points, acronym: ref.acronym, causes, where: placesOf(audit) });
    }
    audits.sort((a, b) => b.points - a.points);
    out.push({ category: id, title: category.title, score: Math.round(category.score * 100), audits: audits.slice(0, TOP.audits) });
  }
  return out;
}

/** The costs as indented Markdown list lines. */
export function formatCosts(costs: CategoryCosts[]): string[] {
  const lines: string[] = [];
  const unit = (acronym: string | undefined, saving: number) => (acronym === 'CLS' ? `${saving.toFixed(3)} of shift` : `${Math.round(saving)} ms`);
  for (const c of costs) {
    lines.push(`- ${c.title} ${c.score}:`);
    for (const a of c.audits) {
      const value = a.displayValue ? ` (${a.displayValue})` : '';
      const at = a.where.length ? `: ${a.where.join('; ')}` : '';
      lines.push(`  - −${a.points.toFixed(1)} points: ${a.title}${value}${a.causes.length ? '' : at}`);
      for (const cause of a.causes) {
        const places = cause.where.length ? `: ${cause.where.join('; ')}` : '';
        const shown = cause.displayValue ? `, ${cause.displayValue}` : '';
        lines.push(`    - \`${cause.id}\` saves ${unit(a.acronym, cause.saving)}${shown}${places}`);
      }
    }
  }
  return lines;
}
