import { renderAsync } from '@resvg/resvg-js';
import type { HistoryEntry, Side } from '@duet/contracts';
import type { Language } from '@duet/contracts/limits';
import { escapeMarkup, shareTexts, verdictOf } from './share-texts.ts';

/** The preview's size: what link previews (Open Graph, Twitter's large card) ask for. */
export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 630;

const FAMILY = 'NanumGothic';
const INK = '#1e293b';
const SOFT = '#475569';
const SIDE_COLOUR: Record<Side, string> = { a: '#4f46e5', b: '#db2777' };


/**
 * About how wide a character sets in Nanum Gothic Bold, in ems (a little wide for the regular weight):
 * Hangul, kana and ideographs are square, Latin letters a little over half that. Close enough to
 * wrap and cut a line without measuring glyphs.
 */
function emWidth(ch: string): number {
  const c = ch.codePointAt(0) ?? 0;
  if ((c >= 0x1100 && c <= 0x11ff) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef) || c > 0xffff) return 1;
  if (ch === ' ') return 0.23;
  if ('iljfrtI.,:;!|\'`()[]'.includes(ch)) return 0.34;
  if (/[A-Z0-9mw@%#&]/.test(ch)) return 0.7;
  return 0.6;
}

/**
 * `text` set in lines of at most `maxEm` ems, at most `maxLines` of them, broken at spaces where
 * it can (Korean and Chinese break anywhere), the last one ending in "…" when something was cut.
 */
export function wrapLines(text: string, maxEm: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  let width = 0;
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  let i = 0;
  while (i < chars.length && lines.length < maxLines) {
    const ch = chars[i] ?? '';
    const w = emWidth(ch);
    if (width + w > maxEm && line) {
      const space = line.lastIndexOf(' ');
      // Break at the last space when it keeps most of the line; else mid-word.
      if (space > line.length / 2 && lines.length < maxLines - 1) {
        i -= line.length - space - 1;
        line = line.slice(0, space);
      }
      lines.push(line.trimEnd());
      line = '';
      width = 0;
      continue;
    }
    if (!(line === '' && ch === ' ')) {
      line += ch;
      width += w;
    }
    i += 1;
  }
  if (line && lines.length < maxLines) lines.push(line);
  if (i < chars.length && lines.length > 0) {
    let last = lines[lines.length - 1] ?? '';
    while (last && [...last].reduce((s, c) => s + emWidth(c), 0) + 1 > maxEm) last = [...last].slice(0, -1).join('');
    // End on a whole word where one ends near the cut.
    const space = last.lastIndexOf(' ');
    if (space > last.length * 0.7) last = last.slice(0, space);
    lines[lines.length - 1] = `${last.trimEnd()}…`;
  }
  return lines;
}

/** The first line of the question with words in it: what the preview shows of it. */
export function questionLine(entry: HistoryEntry): string {
  const first = entry.question.text.split('\n').find((l) => l.trim()) ?? '';
  if (first) return first.trim();
  const { poemTitle, keywords } = entry.question.inputs;
  return poemTitle ?? (keywords?.length ? keywords.map((k) => `#${k}`).join(' ') : '');
}

/**
 * The preview of a shared battle as SVG: the question's first line, the two models with their
 * sides' colours, the winner marked by a badge and a heavier frame (not by colour alone), and the
 * verdict in words. Every text from the battle is escaped: it is the visitor's and the models'.
 */
export function previewSvg(entry: HistoryEntry, lang: Language): string {
  const t = shareTexts(lang);
  const question = wrapLines(questionLine(entry) || t.imageQuestion, 1080 / 52, 2);
  const box = (side: Side, x: number) => {
    const won = entry.winner === side;
    const label = wrapLines(entry.sides[side].label, 470 / 40, 1)[0] ?? '';
    return `<g>
      <rect x="${x}" y="330" width="520" height="170" rx="24" fill="#ffffff" stroke="${SIDE_COLOUR[side]}" stroke-width="${won ? 8 : 2}"/>
      <circle cx="${x + 52}" cy="376" r="24" fill="${SIDE_COLOUR[side]}"/>
      <text x="${x + 52}" y="386" font-size="28" font-weight="700" fill="#ffffff" text-anchor="middle">${side.toUpperCase()}</text>
      ${won ? `<text x="${x + 490}" y="386" font-size="28" font-weight="700" fill="${SIDE_COLOUR[side]}" text-anchor="end">${escapeMarkup(t.winnerBadge)}</text>` : ''}
      <text x="${x + 28}" y="460" font-size="40" font-weight="700" fill="${INK}">${escapeMarkup(label)}</text>
    </g>`;
  };
  const verdict = verdictOf(entry, t);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" viewBox="0 0 ${PREVIEW_WIDTH} ${PREVIEW_HEIGHT}" font-family="${FAMILY}">
  <rect width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" fill="#eef2ff"/>
  <rect x="0" y="0" width="${PREVIEW_WIDTH}" height="12" fill="#4f46e5"/>
  <g transform="translate(60 52)">
    <rect width="56" height="56" rx="12" fill="#4f46e5"/>
    <circle cx="21" cy="28" r="11.5" fill="#ffffff" opacity="0.9"/>
    <circle cx="35" cy="28" r="11.5" fill="#fb7185" opacity="0.85"/>
  </g>
  <text x="132" y="92" font-size="34" font-weight="700" fill="${INK}">Duet</text>
  <text x="1140" y="92" font-size="28" fill="${SOFT}" text-anchor="end">${escapeMarkup(t.imageTagline)}</text>
  ${question.map((l, i) => `<text x="60" y="${198 + i * 66}" font-size="52" font-weight="700" fill="${INK}">${escapeMarkup(l)}</text>`).join('\n  ')}
  ${box('a', 60)}
  ${box('b', 620)}
  <text x="60" y="570" font-size="34" fill="${INK}">${escapeMarkup(wrapLines(verdict, 1080 / 34, 1)[0] ?? '')}</text>
</svg>`;
}

/** Renders the preview to PNG, off the event loop (resvg's own thread); `fontFiles` give it its letters. */
export async function renderPreview(entry: HistoryEntry, lang: Language, fontFiles: readonly string[]): Promise<Buffer> {
  const image = await renderAsync(previewSvg(entry, lang), {
    fitTo: { mode: 'original' },
    font: { fontFiles: [...fontFiles], loadSystemFonts: false, defaultFontFamily: FAMILY },
  });
  return image.asPng();
}
