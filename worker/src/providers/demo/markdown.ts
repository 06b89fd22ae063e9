/** Joins lines, dropping `false` and `undefined` ones. */
export const md = (...lines: (string | false | undefined)[]): string =>
  lines.filter((l): l is string => typeof l === 'string').join('\n');

/** A number with thousands separators and at most `digits` decimals. */
export const fmt = (n: number, digits = 2): string =>
  (Object.is(n, -0) ? 0 : n).toLocaleString('en-US', { maximumFractionDigits: digits });

/** A Markdown table. */
export const table = (head: string[], rows: (string | number)[][], align?: ('l' | 'r')[]): string =>
  md(
    `| ${head.join(' | ')} |`,
    `| ${head.map((_, i) => (align?.[i] === 'r' ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  );

/** Poem lines end in two spaces: a Markdown hard line break. */
export const stanza = (lines: string[]): string => lines.map((l) => `${l}  `).join('\n');

export const numbered = (items: string[]): string[] => items.map((s, i) => `${i + 1}. ${s}`);
export const bullets = (items: string[]): string[] => items.map((s) => `- ${s}`);

export const codeBlock = (lang: string, code: string): string => md(`\`\`\`${lang}`, code, '```');

export const hashtag = (k: string): string => `#${k.replace(/[\s#'’.,!?-]+/g, '')}`;
