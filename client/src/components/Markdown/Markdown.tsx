import 'katex/dist/katex.min.css';
import { Component, memo } from 'react';
import type { ComponentPropsWithoutRef, ElementType, ReactNode } from 'react';
import ReactMarkdown from 'react-markdown';
import type { Components, ExtraProps, UrlTransform } from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import { measureMarkdown } from './limits.ts';
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

/**
 * Renders a model's answer: GFM, math (KaTeX), code; raw HTML is shown as text, never run.
 * Text nested or long beyond `MARKDOWN_LIMITS`, or that makes the renderer throw, is shown as
 * plain text instead, so a hostile answer never takes the page down.
 */
export const Markdown = memo(function Markdown({ children, className }: MarkdownProps) {
  const classes = className ? `md ${className}` : 'md';
  if (measureMarkdown(children).render === 'plain') return <PlainText className={classes}>{children}</PlainText>;
  return (
    <MarkdownBoundary text={children} className={classes}>
      <div className={classes} data-render="markdown">
        <ReactMarkdown
          remarkPlugins={remarkPlugins}
          rehypePlugins={rehypePlugins}
          components={components}
          urlTransform={safeUrl}
        >
          {children}
        </ReactMarkdown>
      </div>
    </MarkdownBoundary>
  );
});

/** The answer's characters as one text node, line breaks and spaces kept. */
function PlainText({ children, className }: { children: string; className: string }) {
  return (
    <div className={`${className} md--plain`} data-render="plain">
      {children}
    </div>
  );
}

interface BoundaryProps {
  text: string;
  className: string;
  children: ReactNode;
}

interface BoundaryState {
  /** The text the renderer threw on; null while it renders. */
  failedOn: string | null;
  caught: boolean;
}

/**
 * Falls back to plain text when rendering throws (a stack overflow the limits did not foresee).
 * A streaming answer only grows: while the text still starts with the one that failed it stays
 * plain, rather than failing again on every delta; any other text gets a new try.
 */
class MarkdownBoundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { failedOn: null, caught: false };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { caught: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.caught && state.failedOn === null) return { failedOn: props.text };
    if (state.failedOn !== null && !props.text.startsWith(state.failedOn)) return { failedOn: null, caught: false };
    return null;
  }

  render() {
    if (this.state.caught) return <PlainText className={this.props.className}>{this.props.text}</PlainText>;
    return this.props.children;
  }
}
