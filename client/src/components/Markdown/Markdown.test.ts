import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown.tsx';

const render = (text: string) => renderToString(createElement(Markdown, null, text));

describe('Markdown', () => {
  it('renders an ordinary answer as Markdown', () => {
    const html = render('# Tides\n\n> The sea\n\n- Moon\n  - Sun');
    expect(html).toContain('data-render="markdown"');
    expect(html).toContain('<blockquote>');
    expect(html).toContain('<li>');
  });

  it('renders nested block quotes 3 KB deep as their own characters, in one text node', () => {
    const hostile = `${'> '.repeat(1_500)}deepest\n\n  indented   line`;
    const html = render(hostile);
    expect(html).toContain('data-render="plain"');
    expect(html).not.toContain('<blockquote');
    // Escaped as text, spaces and line breaks as sent.
    expect(html).toContain(`${'&gt; '.repeat(1_500)}deepest\n\n  indented   line`);
  });

  it('never turns a plain answer’s characters into markup', () => {
    const html = render(`${'- '.repeat(1_500)}<img src=x onerror="alert(1)">`);
    expect(html).toContain('data-render="plain"');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });
});
