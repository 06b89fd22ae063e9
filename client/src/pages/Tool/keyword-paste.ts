/** Splits a pasted list into keywords: commas (any width), semicolons, new lines. */
export const splitKeywords = (text: string): string[] =>
  text
    .split(/[,，、;\n\r]+/)
    .map((k) => k.trim())
    .filter(Boolean);

/**
 * A pasted list put into the keyword boxes: it fills box `index` and then the next empty ones;
 * what does not fit in the five boxes is left out and counted.
 */
export function pasteKeywords(keywords: readonly string[], index: number, parts: readonly string[]): { keywords: string[]; dropped: number } {
  const next = [...keywords];
  let i = index;
  let placed = 0;
  for (const part of parts) {
    while (i < next.length && i !== index && next[i]!.trim() !== '') i++;
    if (i >= next.length) break;
    next[i] = part;
    placed++;
    i++;
  }
  return { keywords: next, dropped: parts.length - placed };
}
