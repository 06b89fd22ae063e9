import type { HistoryEntry } from '@duet/contracts';
import type { Language } from '@duet/contracts/limits';
import { PREVIEW_HEIGHT, PREVIEW_WIDTH, questionLine } from './share-preview.ts';
import { escapeMarkup, shareTexts, verdictOf } from './share-texts.ts';

/** The document a shared battle's page is built on when no client is built (an API-only gateway). */
export const BARE_SHELL = '<!doctype html>\n<html lang="ko">\n  <head>\n    <meta charset="UTF-8" />\n    <title>Duet</title>\n  </head>\n  <body></body>\n</html>\n';


const LOCALE: Record<Language, string> = { en: 'en_US', ko: 'ko_KR' };

/** At most `n` characters, cut at a word where one is near, with "…". */
function clip(s: string, n: number): string {
  const chars = [...s];
  if (chars.length <= n) return s;
  const cut = chars.slice(0, n - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > n * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** What a link preview shows of a shared battle: title, description, image and where they live. */
export interface ShareCard {
  title: string;
  description: string;
  url: string;
  image: string;
  imageAlt: string;
  lang: Language;
}

export function shareCard(entry: HistoryEntry, lang: Language, origin: string): ShareCard {
  const t = shareTexts(lang);
  const { a, b } = entry.sides;
  const verdict = verdictOf(entry, t);
  const question = questionLine(entry);
  return {
    title: t.title(a.label, b.label),
    description: clip(`${question ? `“${clip(question, 120)}” ` : ''}${verdict} ${t.invitation}`, 300),
    url: `${origin}/b/${entry.id}`,
    image: `${origin}/b/${entry.id}/preview.png?lang=${lang}`,
    imageAlt: t.imageAlt(a.label, b.label),
    lang,
  };
}

/**
 * The app shell with the card's tags in its head (link previews run no JavaScript, so they are in
 * the HTML itself): its own title and description instead of the shell's, Open Graph and Twitter's
 * large card. Every value is escaped: the question is the visitor's, the labels the roster's.
 */
export function sharePageHtml(shell: string, card: ShareCard): string {
  const e = escapeMarkup;
  const tags = [
    `<title>${e(card.title)}</title>`,
    `<meta name="description" content="${e(card.description)}" />`,
    `<link rel="canonical" href="${e(card.url)}" />`,
    `<meta property="og:type" content="article" />`,
    `<meta property="og:site_name" content="Duet" />`,
    `<meta property="og:title" content="${e(card.title)}" />`,
    `<meta property="og:description" content="${e(card.description)}" />`,
    `<meta property="og:url" content="${e(card.url)}" />`,
    `<meta property="og:locale" content="${LOCALE[card.lang]}" />`,
    `<meta property="og:image" content="${e(card.image)}" />`,
    `<meta property="og:image:type" content="image/png" />`,
    `<meta property="og:image:width" content="${PREVIEW_WIDTH}" />`,
    `<meta property="og:image:height" content="${PREVIEW_HEIGHT}" />`,
    `<meta property="og:image:alt" content="${e(card.imageAlt)}" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${e(card.title)}" />`,
    `<meta name="twitter:description" content="${e(card.description)}" />`,
    `<meta name="twitter:image" content="${e(card.image)}" />`,
    `<meta name="twitter:image:alt" content="${e(card.imageAlt)}" />`,
  ].join('\n    ');
  return shell
    .replace(/<html lang="[^"]*"/, `<html lang="${card.lang}"`)
    .replace(/\s*<title>[^<]*<\/title>/, '')
    .replace(/\s*<meta name="description"[^>]*>/, '')
    .replace('</head>', () => `    ${tags}\n  </head>`);
}
