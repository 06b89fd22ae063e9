import 'katex/dist/katex.min.css';
import { memo } from 'react';
import type { ComponentPropsWithoutRef, ElementType } from 'react';
import ReactMarkdown from 'react-markdown';
import type { Components, ExtraProps, UrlTransform } from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import './Markdown.css';

const SAFE_URL = /^(https?:\/\/|mailto:)/i;

/**
 * Model output is untrusted: only absolute http(s) and mailto links survive; anything else
 * (javascript:, data:, relative paths, protocol tricks) is dropped.
 */
export const safeUrl: UrlTransform = (url) => {
  const trimmed = url.trim();
  return SAFE_URL.test(trimmed) ? trimmed : '';
};

/** Headings inside an answer sit under the page's own h1/h2: shift them down two levels. */
const heading = (Tag: ElementType) =>
  function Heading({ node: _node, ...props }: ComponentPropsWithoutRef<'h1'> & ExtraProps) {
    return <Tag {...props} />;
  };

const components: Components = {
  a: ({ node: _node, href, children, ...props }) =>
    href ? (
      <a {...props} href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  // Images from model output are not fetched automatically (tracking pixels, odd hosts): a link instead.
  img: ({ src, alt }) =>
    typeof src === 'string' && src ? (
      <a href={src} target="_blank" rel="noopener noreferrer nofollow" className="md-image-link">
        🖼 {alt || src}
      </a>
    ) : (
      <span>{alt}</span>
    ),
  table: ({ node: _node, ...props }) => (
    // A wide table scrolls sideways inside its own box; focusable so keyboards can scroll it.
    <div className="md-table-wrap" tabIndex={0}>
      <table {...props} />
    </div>
  ),
  pre: ({ node: _node, ...props }) => <pre className="md-pre" tabIndex={0} {...props} />,
  h1: heading('h3'),
  h2: heading('h4'),
  h3: heading('h5'),
  h4: heading('h6'),
  h5: heading('h6'),
  h6: heading('h6'),
};

const remarkPlugins = [remarkGfm, remarkMath];
const rehypePlugins = [rehypeKatex];

interface MarkdownProps {
  children: string;
  className?: string;
}

/** Renders a model's answer: GFM, math (KaTeX), code; raw HTML is shown as text, never run. */
export const Markdown = memo(function Markdown({ children, className }: MarkdownProps) {
  return (
    <div className={className ? `md ${className}` : 'md'}>
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={components}
        urlTransform={safeUrl}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
});
