// docs/configuration.md is the one list of Duet's settings. The zod schemas the gateway and the
// worker parse their environment with are the truth it is held against: every key of theirs has
// a row, every row names a key of theirs (except the tables, titled as such, of variables only
// `npm start`, the tests, the benchmarks or Compose read), each plain default is the schema's,
// and each row sits under the process that reads it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ZBudgetEnvSchema } from '@duet/platform/budget-settings';
import { ZInfraEnvSchema } from '@duet/platform/env';
import { ZBreakerEnvSchema } from '@duet/platform/model-breaker';
import { ZModelEnvSchema } from '@duet/platform/roster-settings';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ZAccountsEnvSchema } from '../../server/src/accounts-config.ts';
import { ZGatewayEnvSchema } from '../../server/src/config.ts';
import { ZSiteEnvSchema } from '../../server/src/site-config.ts';
import { ZWorkerEnvSchema } from '../../worker/src/config.ts';

type Process = 'gateway' | 'worker';
type Shape = Record<string, z.ZodType>;

const PROCESS_SCHEMAS: Record<Process, Shape> = {
  gateway: ZGatewayEnvSchema.shape,
  worker: ZWorkerEnvSchema.shape,
};
/** The parts the process schemas are built from: each must reach a process. */
const PART_SCHEMAS: Record<string, Shape> = {
  ZInfraEnvSchema: ZInfraEnvSchema.shape,
  ZModelEnvSchema: ZModelEnvSchema.shape,
  ZBudgetEnvSchema: ZBudgetEnvSchema.shape,
  ZBreakerEnvSchema: ZBreakerEnvSchema.shape,
  ZAccountsEnvSchema: ZAccountsEnvSchema.shape,
  ZSiteEnvSchema: ZSiteEnvSchema.shape,
};

/** A section whose title says so holds variables no gateway or worker reads. */
const OUTSIDE_THE_SCHEMAS = /not read by the gateway or the worker/i;

interface Row {
  /** Every backticked UPPER_CASE name of the first cell. */
  names: string[];
  /** The Default cell as written. */
  defaults: string;
  /** The `##` or `###` heading the table is under. */
  section: string;
  line: number;
}

/** Splits a table row on its unescaped pipes (`\|` stays inside a cell). */
const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/** Every row of every `| Variable | Default | Meaning |` table, with the heading it is under. */
function settingRows(markdown: string): Row[] {
  const rows: Row[] = [];
  let section = '';
  let inTable = false;
  markdown.split('\n').forEach((text, i) => {
    const heading = /^#{2,3}\s+(.*)$/.exec(text);
    if (heading) section = heading[1]!.trim();
    if (!text.trimStart().startsWith('|')) {
      inTable = false;
      return;
    }
    const cells = cellsOf(text);
    if (cells[0] === 'Variable' && cells[1] === 'Default') {
      inTable = true;
      return;
    }
    if (!inTable || /^:?-+:?$/.test(cells[0] ?? '')) return;
    const names = [...(cells[0] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!);
    rows.push({ names, defaults: cells[1] ?? '', section, line: i + 1 });
  });
  return rows;
}

type Default = { kind: 'empty'; text: string } | { kind: 'value'; value: string } | { kind: 'not plain' };

/**
 * The default a schema gives one key, from the key's own schema (the whole schema cross-checks
 * keys, so `parse({})` says nothing about one of them). Unset, blank and empty lists count as
 * empty; a value other than a string, number or boolean is not plain and is not compared.
 */
function schemaDefault(schema: z.ZodType): Default {
  const result = schema.safeParse(undefined);
  if (!result.success) return { kind: 'empty', text: 'required' };
  const value: unknown = result.data;
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return { kind: 'empty', text: '' };
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return { kind: 'value', value: String(value) };
  return { kind: 'not plain' };
}

/**
 * What a row's Default cell says of its `index`-th name: a cell opening with "(" describes an
 * unset setting for all its names ("(empty: admin API off)"); otherwise the names' defaults are its
 * backticked values, in order ("`5`, `2`, `20`").
 */
function documentedDefault(row: Row, index: number): Default {
  const cell = row.defaults.trim();
  if (cell.startsWith('(')) return { kind: 'empty', text: cell };
  const values = [...cell.matchAll(/`([^`]*)`/g)].map((m) => m[1]!);
  const value = values[index];
  return value === undefined ? { kind: 'empty', text: cell } : { kind: 'value', value };
}

/** The processes a section's title names: "Both processes", "(gateway and worker)", "Worker: …". */
function readersNamed(section: string): Process[] {
  if (/both processes/i.test(section)) return ['gateway', 'worker'];
  return (['gateway', 'worker'] as const).filter((p) => new RegExp(`\\b${p}\\b`, 'i').test(section));
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const doc = readFileSync(`${root}docs/configuration.md`, 'utf8');
const rows = settingRows(doc);
const schemaRows = rows.filter((r) => !OUTSIDE_THE_SCHEMAS.test(r.section));
const outsideRows = rows.filter((r) => OUTSIDE_THE_SCHEMAS.test(r.section));
const documented = schemaRows.flatMap((r) => r.names);

const readersOf = (key: string): Process[] => (['gateway', 'worker'] as const).filter((p) => key in PROCESS_SCHEMAS[p]);
const schemaKeys = new Set([
  ...Object.values(PROCESS_SCHEMAS).flatMap((s) => Object.keys(s)),
  ...Object.values(PART_SCHEMAS).flatMap((s) => Object.keys(s)),
]);
const where = (r: Row) => `docs/configuration.md:${r.line} (${r.section})`;

describe('docs/configuration.md, held against the settings schemas', () => {
  it('reads a name from every row of its settings tables', () => {
    expect(rows.length).toBeGreaterThan(50);
    expect(rows.filter((r) => r.names.length === 0).map(where)).toEqual([]);
  });

  it('lists every setting the gateway and worker schemas read', () => {
    const missing = [...schemaKeys].filter((k) => !documented.includes(k));
    expect(missing, 'settings with no row in docs/configuration.md').toEqual([]);
  });

  it('names no setting that no schema reads, outside the tables titled as not read by the gateway or the worker', () => {
    const unknown = schemaRows.flatMap((r) => r.names.filter((n) => !schemaKeys.has(n)).map((n) => `${n} at ${where(r)}`));
    expect(unknown).toEqual([]);
  });

  it('keeps the development, test and Compose variables out of the schemas', () => {
    expect(outsideRows.length).toBeGreaterThan(0);
    const read = outsideRows.flatMap((r) => r.names.filter((n) => schemaKeys.has(n)).map((n) => `${n} at ${where(r)}`));
    expect(read, 'a process reads these: move them to its table').toEqual([]);
  });

  it('documents each setting once', () => {
    const all = rows.flatMap((r) => r.names);
    expect(all.filter((n, i) => all.indexOf(n) !== i)).toEqual([]);
  });

  it("gives each setting the default its schema gives it, and shows an unset one as '(…)'", () => {
    const wrong: string[] = [];
    for (const row of schemaRows) {
      row.names.forEach((name, index) => {
        const said = documentedDefault(row, index);
        const schemas = [...Object.values(PROCESS_SCHEMAS), ...Object.values(PART_SCHEMAS)].filter((s) => name in s);
        for (const schema of schemas) {
          const real = schemaDefault(schema[name]!);
          if (real.kind === 'not plain') continue;
          if (real.kind === 'value' && (said.kind !== 'value' || said.value !== real.value)) {
            wrong.push(`${name}: the schema's default is \`${real.value}\`, the doc says ${row.defaults} at ${where(row)}`);
          } else if (real.kind === 'empty' && said.kind !== 'empty') {
            wrong.push(`${name}: the schema has no default, the doc says ${row.defaults} at ${where(row)} (write it as "(empty: …)")`);
          } else if (real.kind === 'empty' && real.text === 'required' && said.kind === 'empty' && !/required/i.test(said.text)) {
            wrong.push(`${name}: the schema requires it, the doc says ${row.defaults} at ${where(row)}`);
          }
        }
      });
    }
    expect([...new Set(wrong)]).toEqual([]);
  });

  it('puts each setting under the process that reads it', () => {
    const misplaced = schemaRows.flatMap((r) =>
      r.names
        .filter((n) => schemaKeys.has(n))
        .filter((n) => readersNamed(r.section).join() !== readersOf(n).join())
        .map((n) => `${n}: read by ${readersOf(n).join(' and ') || 'neither process'}, under "${r.section}" at line ${r.line}`),
    );
    expect(misplaced).toEqual([]);
  });
});
