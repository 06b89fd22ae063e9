import type { StyleFeature } from '@duet/contracts';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';

/** An answer's style features, as the style-controlled ratings read them. */
export type AnswerStyle = Record<StyleFeature, number>;

/**
 * Counts what makes an answer look thorough, parsed as the page renders it (CommonMark): its length
 * in characters (code points), headings, list items, bold spans and code blocks (fenced or
 * indented). The text is model output: it is only parsed, never rendered or evaluated here.
 */
export function answerStyle(text: string): AnswerStyle {
  const style: AnswerStyle = { length: [...text].length, headers: 0, listItems: 0, bold: 0, codeBlocks: 0 };
  const visit = (node: Nodes) => {
    if (node.type === 'heading') style.headers++;
    else if (node.type === 'listItem') style.listItems++;
    else if (node.type === 'strong') style.bold++;
    else if (node.type === 'code') style.codeBlocks++;
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(text));
  return style;
}

