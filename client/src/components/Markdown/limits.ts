/**
 * How much Markdown an answer may hold before it is shown as plain text instead. Model output is
 * untrusted: a few kilobytes of `> > > …` or `- - - …` nest block quotes and lists thousands
 * deep, and the Markdown pipeline (parser, syntax tree, React) walks that nesting recursively
 * until the call stack runs out. Plain text shows the same characters without the risk.
 */
export const MARKDOWN_LIMITS = {
  /** Deepest nesting of block quotes and list items still rendered as Markdown. */
  maxDepth: 16,
  /** Longest answer parsed as Markdown; the parse runs again on every streamed delta. */
  maxChars: 60_000,
};

export type MarkdownLimits = typeof MARKDOWN_LIMITS;

/** What `measureMarkdown` saw, and whether the text is shown as Markdown or as plain text. */
export interface MarkdownMeasure {
  render: 'markdown' | 'plain';
  /** Why it is plain; null for Markdown. */
  reason: 'depth' | 'size' | null;
  chars: number;
  /** The container depth found, stopping once it passed the cap (so at most `maxDepth + 1`). */
  depth: number;
}

/** Decides how an answer is shown: size first (no scan at all), then container depth. */
export function measureMarkdown(text: string, limits: MarkdownLimits = MARKDOWN_LIMITS): MarkdownMeasure {
  const chars = text.length;
  if (chars > limits.maxChars) return { render: 'plain', reason: 'size', chars, depth: 0 };
  const depth = containerDepth(text, limits.maxDepth);
  if (depth > limits.maxDepth) return { render: 'plain', reason: 'depth', chars, depth };
  return { render: 'markdown', reason: null, chars, depth };
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const GT = 0x3e;

/**
 * How deep block quotes and list items nest in `text`, in one pass over its lines, without
 * recursion and without parsing. Each line's container prefix is read (indentation, `>` markers,
 * list markers such as `-`, `*`, `+`, `1.`, `1)`), and open list items are kept on a stack of
 * content columns, so the usual nested list (each level indented under the one above) counts one
 * level per item, as the Markdown parser would.
 *
 * Where it is unsure it counts more, never less: markers inside code blocks count, a list item
 * stays open until a marker line closes it, content is taken to start one space after a marker.
 * Scanning stops as soon as the depth passes `stopAbove`.
 */
export function containerDepth(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  const open = openItems();
  const breaks = thematicBreaks(text);
  let deepest = 0;
  let i = 0;
  const end = text.length;
  while (i < end) {
    let col = 0;
    let quotes = 0;
    let markers = 0;
    // The container prefix: whitespace, `>` and list markers, in any order.
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === SPACE) {
        col += 1;
        i += 1;
      } else if (c === TAB) {
        col += 4 - (col % 4);
        i += 1;
      } else if (c === GT) {
        quotes += 1;
        // A block quote starting here closes the items outside it that it is not indented under.
        if (markers === 0) open.close((item) => item.quotes < quotes && item.contentCol > col);
        col += 1;
        i += 1;
      } else {
        const width = listMarkerWidth(text, i);
        if (width === 0 || breaks.at(i)) break;
        // The first list marker of a line closes the items it is not inside of; later ones on
        // the same line sit further right, inside the ones before them.
        if (markers === 0) open.close((item) => item.quotes > quotes || item.contentCol > col);
        markers += 1;
        col += width;
        i += width;
        // Content starts after at least one space: the narrowest reading counts the most nesting.
        open.push({ contentCol: col + 1, quotes });
      }
      if (quotes + open.size > stopAbove) return quotes + open.size;
    }
    const depth = quotes + open.size;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > stopAbove) return deepest;
    }
    // On to the next line.
    while (i < end) {
      const c = text.charCodeAt(i);
      i += 1;
      if (c === LF) break;
      if (c === CR) {
        if (text.charCodeAt(i) === LF) i += 1;
        break;
      }
    }
  }
  return deepest;
}

/** A list item still open: where its content starts, and inside how many block quotes it began. */
interface OpenItem {
  contentCol: number;
  quotes: number;
}

/** The list items open so far, outermost first. */
function openItems() {
  const items: OpenItem[] = [];
  return {
    push: (item: OpenItem) => void items.push(item),
    /** Closes innermost items while `closes` says so. */
    close(closes: (item: OpenItem) => boolean): void {
      while (items.length > 0 && closes(items[items.length - 1]!)) items.pop();
    },
    get size(): number {
      return items.length;
    },
  };
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isLineEnd = (c: number): boolean => c === LF || c === CR || Number.isNaN(c);
const endsMarker = (c: number): boolean => c === SPACE || c === TAB || isLineEnd(c);

/**
 * The width of a list marker at `i` (`-`, `*`, `+`, or up to nine digits then `.` or `)`)
 * followed by whitespace or the end of the line; 0 when there is none.
 */
function listMarkerWidth(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x2d || c === 0x2a || c === 0x2b) return endsMarker(text.charCodeAt(i + 1)) ? 1 : 0;
  let j = i;
  while (j - i < 9 && isDigit(text.charCodeAt(j))) j += 1;
  if (j === i) return 0;
  const d = text.charCodeAt(j);
  return (d === 0x2e || d === 0x29) && endsMarker(text.charCodeAt(j + 1)) ? j + 1 - i : 0;
}

/**
 * Answers whether the rest of a line from `i` is a thematic break (`***`, `- - -`, `___`: three
 * or more of one of them, spaces allowed, nothing else), which is not a list. Linear over a whole
 * line of markers: a scan remembers where the line stops being a break for its mark, and later
 * positions before that point with the same mark reuse it.
 */
function thematicBreaks(text: string) {
  let mark = -1;
  /** The first position after the last scan's start that breaks `mark`'s run (or ends the line). */
  let stop = -1;
  let isBreak = false;
  return {
    at(i: number): boolean {
      const c = text.charCodeAt(i);
      if (c !== 0x2d && c !== 0x2a && c !== 0x5f) return false;
      if (c === mark && i < stop) return isBreak;
      mark = c;
      let count = 0;
      let j = i;
      for (; ; j += 1) {
        const d = text.charCodeAt(j);
        if (isLineEnd(d)) {
          isBreak = count >= 3;
          break;
        }
        if (d === c) count += 1;
        else if (d !== SPACE && d !== TAB) {
          isBreak = false;
          break;
        }
      }
      stop = j;
      return isBreak;
    },
  };
}
