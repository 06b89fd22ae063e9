/** English grammar for inserted words: articles, number agreement, lists and capitals. */

/** Words spelt with a vowel that start with a consonant sound, and the reverse. */
const CONSONANT_SOUND = /^(?:uni(?!n)|use|usu|uti|ure|eu|ewe|one|once|ukr|u[bcfhjkqrst][aeiou])/i;
const VOWEL_SOUND = /^(?:hour|honest|honou?r|heir)/i;
/** Letters whose names start with a vowel sound: an FAQ, an SUV, an MRI. */
const VOWEL_LETTER_NAME = /^[AEFHILMNORSX]/;

/** `a` or `an`, by the sound the word starts with. */
export function article(word: string): 'a' | 'an' {
  const w = word.replace(/^[\s"“‘'*_(]+/, '');
  if (/^[A-Z]{2,}\b/.test(w) && !/^[A-Z][a-z]/.test(w)) return VOWEL_LETTER_NAME.test(w) ? 'an' : 'a';
  if (/^\d/.test(w)) return /^(?:8|11|18)(?!\d)|^8\d*/.test(w) ? 'an' : 'a';
  if (VOWEL_SOUND.test(w)) return 'an';
  if (CONSONANT_SOUND.test(w)) return 'a';
  return /^[aeiou]/i.test(w) ? 'an' : 'a';
}

/** `word` with its indefinite article: a cafe, an apple, an hour, a unicorn. */
export const withArticle = (word: string): string => `${article(word)} ${word}`;

const SINGULAR_S = /(?:ss|us|is|ics|news|series|species|glass|gas|bus)$/i;
const IRREGULAR_PLURAL = /^(?:people|children|men|women|mice|feet|teeth|geese|data)$/i;

/** A rough test for a plural noun (letters, cookies, people) as opposed to a singular one (glass, news). */
export function isPlural(word: string): boolean {
  const last = word.trim().split(/\s+/).at(-1) ?? '';
  if (IRREGULAR_PLURAL.test(last)) return true;
  return /[^'’]s$/i.test(last) && !SINGULAR_S.test(last);
}

/** `is` or `are`, `was` or `were`, `has` or `have` for a subject. */
export const be = (subject: string): 'is' | 'are' => (isPlural(subject) ? 'are' : 'is');

/** Adjectives a keyword field often holds; a noun slot gets a noun after them. */
const ADJECTIVES = new Set(
  (
    'crunchy crispy creamy chewy juicy fluffy silky spicy salty sweet sour bitter tasty healthy fresh organic vegan ' +
    'happy sad lonely sunny rainy snowy windy cloudy stormy misty dusty rusty cozy cosy quiet loud calm wild soft ' +
    'bright dark golden silver blue red green yellow purple pink black white warm cold hot cool tiny huge little big ' +
    'easy busy lazy pretty funny sleepy dreamy gentle brave free new old young modern vintage retro cute elegant ' +
    'simple minimal affordable cheap premium luxury local handmade homemade natural eco sustainable gluten-free sugar-free'
  ).split(' '),
);
const ADJECTIVE_SUFFIX = /(?:ous|ful|ive|less|ish|able|ible|ical|esque)$/i;

/** A rough test for an adjective keyword (crunchy, vegan, delicious) as opposed to a noun (coffee, cafe). */
export function isAdjective(word: string): boolean {
  const w = word.trim().toLowerCase();
  if (/\s/.test(w)) return false;
  return ADJECTIVES.has(w) || ADJECTIVE_SUFFIX.test(w);
}

/** “a, b and c”. */
export function joinAnd(items: string[], and = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items.at(-1)}`;
}

export const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
export const low = (s: string): string => (/^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);

const SMALL = new Set(['a', 'an', 'the', 'and', 'but', 'or', 'of', 'in', 'on', 'at', 'to', 'for', 'by', 'with', 'vs']);
/** Title Case for a headline, leaving words already capitalised or stylised (iPhone, K-pop) alone. */
export const titleCase = (s: string): string =>
  s
    .split(' ')
    .map((w, i) => (i > 0 && SMALL.has(w) ? w : /^[a-z]/.test(w) ? cap(w) : w))
    .join(' ');
