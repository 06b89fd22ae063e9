import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import { describe, expect, it } from 'vitest';
import { containerDepth, MARKDOWN_LIMITS, measureMarkdown } from './limits.ts';

/** Block quotes nested 3,000 deep in 6 KB. */
const QUOTES = '> '.repeat(3_000) + 'bottom';
/** The same without spaces: one `>` per level, 3 KB. */
const TIGHT_QUOTES = '>'.repeat(3_000) + ' bottom';
/** A list nested 1,500 deep on one line in 3 KB: each `- ` opens an item inside the one before. */
const LIST_LINE = '- '.repeat(1_500) + 'bottom';
/** Numbered items nested the same way. */
const NUMBERED_LINE = '1. '.repeat(2_000) + 'bottom';
/** A list with each line indented one level deeper, 190 levels: 37 KB, under the size cap. */
const INDENTED_LIST = Array.from({ length: 190 }, (_, i) => `${'  '.repeat(i)}- level ${i + 1}`).join('\n');

/** The renderer the answers go through, with the plugins `Markdown` uses, without any cap. */
const renderUncapped = (text: string) =>
  renderToString(createElement(ReactMarkdown, { remarkPlugins: [remarkGfm, remarkMath], rehypePlugins: [rehypeKatex] }, text));

/** The deepest nesting of block quotes and list items in rendered HTML. */
function renderedDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const [, close] of html.matchAll(/<(\/?)(?:blockquote|li)\b/g)) {
    depth += close ? -1 : 1;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/** Short documents of container markers, indentation, code and text in every order (the same each run). */
function* oddDocuments(count: number): Generator<string> {
  const pieces = [' ', '  ', '    ', '\t', '> ', '>', '- ', '-', '* ', '+ ', '1. ', '2. ', '10) ', 'x', 'text ', '# h', '```', '***', '', '<div>'];
  let seed = 20_240_601;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const pick = (n: number) => Math.floor(next() * n);
  for (let k = 0; k < count; k += 1) {
    const lines = Array.from({ length: 1 + pick(12) }, () =>
      Array.from({ length: pick(8) }, () => pieces[pick(pieces.length)]).join(''),
    );
    yield lines.join('\n');
  }
}

/** An ordinary answer with every kind of block an answer uses, a little nested. */
const ORDINARY_ANSWER = [
  '# Tides',
  '',
  'Tides come from the **Moon** and the *Sun*.',
  '',
  '- Gravity',
  '  - of the Moon',
  '    - strongest when it is near',
  '  - of the Sun',
  '- Inertia',
  '',
  '> A quote about the sea.',
  '> > And a reply to it.',
  '',
  ...Array.from({ length: 30 }, (_, i) => `${i + 1}. Step ${i + 1}`),
  '',
  '* * * * * * * * * * * * * * * * * * * * * * * * *',
  '- - - - - - - - - - - - - - - - - - - - - - - - -',
  '',
  '```yaml',
  'tide:',
  '  - high',
  '  - low',
  '```',
  '',
  '| Phase | Range |',
  '| --- | --- |',
  '| Spring | large |',
  '',
  '$$a = \\frac{GM}{r^2}$$',
].join('\n');

describe('Markdown limits', () => {
  it('takes these answers for what they are: the uncapped renderer overflows the stack on each', () => {
    for (const hostile of [QUOTES, TIGHT_QUOTES, LIST_LINE]) expect(() => renderUncapped(hostile)).toThrow(RangeError);
  }, 30_000);

  it('shows block quotes nested thousands deep as plain text', () => {
    expect(measureMarkdown('> '.repeat(1_500) + 'x')).toMatchObject({ render: 'plain', reason: 'depth' });
    expect(measureMarkdown(QUOTES)).toMatchObject({ render: 'plain', reason: 'depth' });
    expect(measureMarkdown(TIGHT_QUOTES)).toMatchObject({ render: 'plain', reason: 'depth' });
  });

  it('shows a list nested on one line as plain text', () => {
    expect(measureMarkdown(LIST_LINE)).toMatchObject({ render: 'plain', reason: 'depth' });
    expect(measureMarkdown(NUMBERED_LINE)).toMatchObject({ render: 'plain', reason: 'depth' });
    expect(measureMarkdown('* '.repeat(40) + 'x')).toMatchObject({ render: 'plain', reason: 'depth' });
  });

  it('shows a list indented one level deeper on every line as plain text', () => {
    expect(INDENTED_LIST.length).toBeLessThan(MARKDOWN_LIMITS.maxChars);
    expect(measureMarkdown(INDENTED_LIST)).toMatchObject({ render: 'plain', reason: 'depth' });
    const tabs = Array.from({ length: 40 }, (_, i) => `${'\t'.repeat(i)}- level`).join('\n');
    expect(measureMarkdown(tabs)).toMatchObject({ render: 'plain', reason: 'depth' });
  });

  it('counts lists inside block quotes and block quotes inside lists', () => {
    const listInQuote = Array.from({ length: 30 }, (_, i) => `> ${'  '.repeat(i)}- level`).join('\n');
    expect(containerDepth(listInQuote)).toBe(31);
    expect(containerDepth('> - '.repeat(20) + 'x')).toBe(40);
    expect(containerDepth('- a\n  > b\n  > - c')).toBe(3);
  });

  it('never counts less nesting than the renderer builds, over a thousand odd little documents', () => {
    for (const doc of oddDocuments(1_000)) {
      const built = renderedDepth(renderUncapped(doc));
      if (containerDepth(doc) < built) expect.fail(`counted ${containerDepth(doc)} < ${built} in ${JSON.stringify(doc)}`);
    }
  }, 30_000);

  it('shows an answer over the size cap as plain text, and one at the cap as Markdown', () => {
    const atCap = 'Tides rise and fall. '.repeat(4_000).slice(0, MARKDOWN_LIMITS.maxChars);
    expect(measureMarkdown(atCap).render).toBe('markdown');
    expect(measureMarkdown(`${atCap}!`)).toMatchObject({ render: 'plain', reason: 'size' });
  });

  it('renders ordinary answers as Markdown: siblings, thematic breaks and code are not nesting', () => {
    expect(measureMarkdown(ORDINARY_ANSWER)).toMatchObject({ render: 'markdown', depth: 3 });
    const deepButFine = Array.from({ length: MARKDOWN_LIMITS.maxDepth }, (_, i) => `${'  '.repeat(i)}- level`).join('\n');
    expect(measureMarkdown(deepButFine)).toMatchObject({ render: 'markdown', depth: MARKDOWN_LIMITS.maxDepth });
  });

  it('stops counting once past the cap', () => {
    expect(containerDepth(QUOTES, 16)).toBe(17);
    expect(containerDepth(QUOTES)).toBe(3_000);
  });
});
