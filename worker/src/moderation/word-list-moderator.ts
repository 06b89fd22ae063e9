import { readFileSync } from 'node:fs';
import { DataSet, englishDataset, englishRecommendedTransformers, parseRawPattern, RegExpMatcher } from 'obscenity';
import type { ModerationContent, ModerationVerdict, Moderator } from './moderator.ts';

/** What the word list can tell: OpenAI's category names, plus `profanity` for plain swearing. */
export type WordListCategory = 'sexual' | 'violence' | 'self-harm' | 'hate' | 'profanity';
const CATEGORIES: readonly WordListCategory[] = ['sexual', 'violence', 'self-harm', 'hate', 'profanity'];

/** One Korean term and the ordinary words that contain it without meaning it. */
export interface WordListEntry {
  term: string;
  category: WordListCategory;
  exceptions: string[];
}

/** A match: what was found, and its category. */
export interface WordListMatch {
  term: string;
  category: WordListCategory;
}

// ------------------------------------------------------------------------------------- Korean

/** Parses `word-list.ko.txt` (its header describes the format). Throws on a malformed line. */
export function parseWordList(source: string): WordListEntry[] {
  const entries: WordListEntry[] = [];
  let category: WordListCategory | null = null;
  for (const [i, raw] of source.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const section = /^\[([a-z-]+)\]$/.exec(line);
    if (section) {
      const name = section[1] as WordListCategory;
      if (!CATEGORIES.includes(name)) throw new Error(`word list line ${i + 1}: unknown category [${section[1]}]`);
      category = name;
      continue;
    }
    if (!category) throw new Error(`word list line ${i + 1}: a term before any [category]`);
    const [term = '', rest] = line.split('!', 2);
    const entry = {
      term: normalize(term),
      category,
      exceptions: rest ? rest.split(',').map(normalize).filter(Boolean) : [],
    };
    for (const e of entry.exceptions) {
      if (!e.includes(entry.term)) throw new Error(`word list line ${i + 1}: exception "${e}" does not contain "${entry.term}"`);
    }
    entries.push(entry);
  }
  return entries;
}

/**
 * The form text is matched in: NFKC (full-width and compatibility letters folded), lower case,
 * zero-width characters dropped, runs of white space as one space, and punctuation slipped
 * between two Hangul syllables to dodge a filter (섹.스, 섹-스) removed.
 */
export function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u200B-\u200D\u2060\uFEFF]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/(?<=[가-힣])[._·*~\-/]+(?=[가-힣])/g, '')
    .trim();
}

/** Korean terms found in already normalised text, skipping occurrences inside their exceptions. */
function findKorean(entries: readonly WordListEntry[], text: string): WordListMatch[] {
  const found: WordListMatch[] = [];
  for (const entry of entries) {
    for (let at = text.indexOf(entry.term); at !== -1; at = text.indexOf(entry.term, at + 1)) {
      const excepted = entry.exceptions.some((e) => {
        const offset = e.indexOf(entry.term);
        return at >= offset && text.startsWith(e, at - offset);
      });
      if (!excepted) {
        found.push({ term: entry.term, category: entry.category });
        break;
      }
    }
  }
  return found;
}

// ------------------------------------------------------------------------------------ English

/** Obscenity's English words by category; a word it adds later counts as `profanity`. */
const ENGLISH_CATEGORIES: Partial<Record<string, WordListCategory>> = Object.fromEntries([
  ...[
    'anal', 'anus', 'bestiality', 'blowjob', 'boob', 'buttplug', 'cock', 'cuck', 'cum', 'deepthroat', 'dick',
    'dildo', 'doggystyle', 'double penetration', 'ejaculate', 'felch', 'fellatio', 'finger bang', 'fisting',
    'gangbang', 'handjob', 'hentai', 'hooker', 'incest', 'jerk off', 'jizz', 'lubejob', 'masturbate', 'orgasm',
    'orgy', 'penis', 'porn', 'pussy', 'scat', 'semen', 'sex', 'slut', 'tit', 'vagina', 'wank', 'whore',
  ].map((w) => [w, 'sexual']),
  ...[
    'abo', 'abeed', 'africoon', 'arabush', 'boonga', 'chingchong', 'chink', 'dyke', 'fag', 'kike', 'negro',
    'nigger', 'retard', 'spastic', 'tranny',
  ].map((w) => [w, 'hate']),
  ['rape', 'violence'],
]);

/**
 * Violent and self-harm phrases obscenity does not cover, in its pattern syntax (`|` is a word
 * boundary). Its matcher folds repeated letters (except b, e, o, l, s, g) before matching, so a
 * pattern must not double any other letter.
 */
const ENGLISH_ADDITIONS: Array<{ phrase: string; category: WordListCategory; patterns: string[] }> = [
  { phrase: 'kill you', category: 'violence', patterns: ['|kill you|', '|kill u|', '|murder you|', '|stab you|'] },
  { phrase: 'slit throat', category: 'violence', patterns: ['|slit your throat', '|slit his throat', '|slit her throat'] },
  { phrase: 'behead', category: 'violence', patterns: ['|behead', '|decapitat'] },
  { phrase: 'dismember', category: 'violence', patterns: ['|dismember', '|disembowel', '|mutilat'] },
  { phrase: 'make a bomb', category: 'violence', patterns: ['|pipe bomb', '|make a bomb|', '|build a bomb|', '|bomb making|'] },
  { phrase: 'kill yourself', category: 'self-harm', patterns: ['|kill yourself|', '|kill myself|', '|kys|', '|suicide method'] },
];

const ADDED_CATEGORIES = new Map(ENGLISH_ADDITIONS.map((a) => [a.phrase, a.category]));

function englishMatcher() {
  const dataset = new DataSet<{ originalWord: string }>().addAll(englishDataset);
  for (const addition of ENGLISH_ADDITIONS) {
    dataset.addPhrase((phrase) => {
      let p = phrase.setMetadata({ originalWord: addition.phrase });
      for (const raw of addition.patterns) p = p.addPattern(parseRawPattern(raw));
      return p;
    });
  }
  return { dataset, matcher: new RegExpMatcher({ ...dataset.build(), ...englishRecommendedTransformers }) };
}

// ----------------------------------------------------------------------------------- moderator

const KOREAN_LIST = new URL('./word-list.ko.txt', import.meta.url);

/** The word-list check on its own: every term found in `text`, Korean and English. */
export function createWordListMatcher(koreanSource: string = readFileSync(KOREAN_LIST, 'utf8')) {
  const korean = parseWordList(koreanSource);
  const english = englishMatcher();
  return function findTerms(text: string): WordListMatch[] {
    const normal = normalize(text);
    const found = findKorean(korean, normal);
    for (const match of english.matcher.getAllMatches(normal)) {
      const word = english.dataset.getPayloadWithPhraseMetadata(match).phraseMetadata?.originalWord ?? '';
      found.push({ term: word, category: ADDED_CATEGORIES.get(word) ?? ENGLISH_CATEGORIES[word] ?? 'profanity' });
    }
    return found;
  };
}

/**
 * The fallback moderator: no network, decides in microseconds, so a battle is decided before
 * its viewer can vote. Flags a battle when any of its texts holds a listed term. Images are not
 * looked at.
 */
export function createWordListModerator(findTerms: (text: string) => WordListMatch[] = createWordListMatcher()): Moderator {
  return {
    kind: 'wordlist',
    moderate: async (content: ModerationContent): Promise<ModerationVerdict> => {
      const categories = new Set(content.texts.flatMap((t) => findTerms(t).map((m) => m.category)));
      return { flagged: categories.size > 0, categories: [...categories].sort(), decidedBy: 'wordlist' };
    },
  };
}
