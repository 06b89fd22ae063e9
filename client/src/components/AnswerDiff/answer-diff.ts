import { diffArrays } from 'diff';

/**
 * How a run of an answer's text relates to the other answer: `same` is in both, `only` is in this
 * answer alone, `unchecked` lies past {@link MAX_DIFF_WORDS} and was not compared.
 */
export type DiffRunKind = 'same' | 'only' | 'unchecked';

/** A stretch of one answer's text, in order: the runs of an answer join back into its text. */
export interface DiffRun {
  text: string;
  kind: DiffRunKind;
}

/** Both answers split into runs, each marked against the other answer. */
export interface AnswerDiff {
  a: DiffRun[];
  b: DiffRun[];
  /** An answer was longer than {@link MAX_DIFF_WORDS}: its end is `unchecked`. */
  cut: boolean;
  /**
   * The answers differ in more than {@link MAX_DIFF_EDITS} words, so they have too little in common
   * to mark what they share (and finding it would take too long): everything compared is `only`.
   */
  unrelated: boolean;
}

/**
 * How many words (or Korean phrases, or punctuation marks) of each answer are compared: a
 * 4,000-word answer is cut here rather than freezing a phone.
 */
export const MAX_DIFF_WORDS = 1_000;

/**
 * How many words may differ (removed plus added) before the diff gives up. Its work grows with
 * length times differences: bounding both keeps the worst case (two unrelated long answers) to a
 * moment on a phone.
 */
export const MAX_DIFF_EDITS = 800;

/** A Korean phrase at most this many characters long may be compared character by character. */
const SHORT_PHRASE = 12;
/** An edit of at most this many phrases on each side may be read pair by pair. */
const PAIRED_PHRASES = 6;

const HANGUL = /\p{Script=Hangul}/u;
const SPACE_OR_NOT = /\s+|\S+/gu;

/** A piece of an answer: a word, a punctuation mark, a Korean phrase, or the whitespace between them. */
interface Piece {
  text: string;
  space: boolean;
}

const wordSegmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'word' }) : null;
const graphemeSegmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/** Words and punctuation of a run without whitespace (a browser without Intl.Segmenter splits on letters). */
const wordsOf = (run: string): string[] =>
  wordSegmenter ? Array.from(wordSegmenter.segment(run), (s) => s.segment) : (run.match(/[\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]/gu) ?? []);

const graphemesOf = (text: string): string[] => (graphemeSegmenter ? Array.from(graphemeSegmenter.segment(text), (s) => s.segment) : Array.from(text));

/**
 * Splits an answer into pieces. Text with Hangul is split into phrases (eojeol, what lies between
 * two spaces: "사과를", "먹었어요."): a Korean word carries its particles and endings, so a phrase is
 * the unit a reader compares. Other text is split into words and punctuation by `Intl.Segmenter`,
 * which also finds the words of scripts written without spaces.
 */
function piecesOf(text: string): Piece[] {
  const pieces: Piece[] = [];
  for (const [run] of text.matchAll(SPACE_OR_NOT)) {
    if (/^\s/u.test(run)) pieces.push({ text: run, space: true });
    else if (HANGUL.test(run)) pieces.push({ text: run, space: false });
    else for (const word of wordsOf(run)) pieces.push({ text: word, space: false });
  }
  return pieces;
}

/** Word indices `[aFrom, aTo)` and `[bFrom, bTo)` that are alike (`same`) or differ (`edit`). */
interface Hunk {
  same: boolean;
  aFrom: number;
  aTo: number;
  bFrom: number;
  bTo: number;
}

/**
 * The words' hunks as jsdiff finds them, a removal and an insertion side by side made one edit;
 * one edit of everything when more than {@link MAX_DIFF_EDITS} words differ.
 */
function hunksOf(a: string[], b: string[]): { hunks: Hunk[]; unrelated: boolean } {
  const changes = diffArrays(a, b, { maxEditLength: MAX_DIFF_EDITS });
  if (!changes) return { hunks: [{ same: false, aFrom: 0, aTo: a.length, bFrom: 0, bTo: b.length }], unrelated: true };
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  for (const change of changes) {
    const same = !change.added && !change.removed;
    const last = hunks.at(-1);
    const hunk = last && !last.same && !same ? last : { same, aFrom: i, aTo: i, bFrom: j, bTo: j };
    if (hunk !== last) hunks.push(hunk);
    if (!change.added) i += change.count;
    if (!change.removed) j += change.count;
    hunk.aTo = i;
    hunk.bTo = j;
  }
  return { hunks, unrelated: false };
}

const charsIn = (words: string[], from: number, to: number): number => words.slice(from, to).reduce((n, w) => n + w.length, 0);
const editSize = (h: Hunk, a: string[], b: string[]): number => Math.max(charsIn(a, h.aFrom, h.aTo), charsIn(b, h.bFrom, h.bTo));

/**
 * Folds a short shared stretch between two edits into one edit when it is no longer than either
 * edit (the semantic clean-up of diff-match-patch): two different answers share many a "the" and
 * "이" by chance, and marking around each one breaks the differences into confetti.
 */
function foldChanceMatches(hunks: Hunk[], a: string[], b: string[]): Hunk[] {
  const out: Hunk[] = [];
  for (const hunk of hunks) {
    out.push(hunk);
    // `edit, same, edit` may fold into one edit, which may then fold with the stretch before it.
    while (out.length >= 3) {
      const [before, middle, after] = out.slice(-3) as [Hunk, Hunk, Hunk];
      if (before.same || !middle.same || after.same) break;
      const shared = charsIn(a, middle.aFrom, middle.aTo);
      if (shared > editSize(before, a, b) || shared > editSize(after, a, b)) break;
      out.splice(-3, 3, { same: false, aFrom: before.aFrom, aTo: after.aTo, bFrom: before.bFrom, bTo: after.bTo });
    }
  }
  return out;
}

/**
 * Marks one changed Korean phrase against its counterpart character by character, when that reads
 * better than marking it whole: both are short and at least half of the shorter one is shared
 * ("사과를" and "사과가" differ in the particle only). Otherwise null: the phrase is marked whole.
 */
function charRuns(mine: string, theirs: string): DiffRun[] | null {
  if (mine === theirs || !HANGUL.test(mine + theirs)) return null;
  const x = graphemesOf(mine);
  const y = graphemesOf(theirs);
  if (x.length > SHORT_PHRASE || y.length > SHORT_PHRASE) return null;
  const changes = diffArrays(x, y).filter((c) => !c.added);
  const shared = changes.reduce((n, c) => (c.removed ? n : n + c.count), 0);
  if (shared * 2 < Math.min(x.length, y.length)) return null;
  return changes.map((c) => ({ text: c.value.join(''), kind: c.removed ? 'only' : 'same' }));
}

/**
 * The runs of each word of one side (`mine`), in order, from the hunks. A short edit of as many
 * phrases on each side is read pair by pair when a Korean pair in it is alike ({@link charRuns}):
 * then the phrases the two share stay unmarked and the alike ones are marked by character.
 */
function wordRuns(hunks: Hunk[], mine: string[], theirs: string[], side: 'a' | 'b'): DiffRun[][] {
  const runs: DiffRun[][] = [];
  for (const h of hunks) {
    const [from, to, otherFrom, otherTo] = side === 'a' ? [h.aFrom, h.aTo, h.bFrom, h.bTo] : [h.bFrom, h.bTo, h.aFrom, h.aTo];
    const words = mine.slice(from, to);
    const kind = h.same ? 'same' : 'only';
    const pairs = !h.same && words.length === otherTo - otherFrom && words.length <= PAIRED_PHRASES ? words.map((w, k) => [w, theirs[otherFrom + k]!] as const) : [];
    const chars = pairs.map(([w, other]) => charRuns(w, other));
    if (chars.some((c) => c !== null)) {
      pairs.forEach(([w, other], k) => runs.push(chars[k] ?? [{ text: w, kind: w === other ? 'same' : 'only' }]));
    } else {
      for (const w of words) runs.push([{ text: w, kind }]);
    }
  }
  return runs;
}

/**
 * Lays the words' runs back among the answer's whitespace, merging neighbours of a kind. Whitespace
 * is never a difference: it is marked only inside a marked stretch, so "only" spans whole phrases.
 */
function assemble(pieces: Piece[], runs: DiffRun[][]): DiffRun[] {
  const out: DiffRun[] = [];
  const push = (run: DiffRun) => {
    const last = out.at(-1);
    if (last && last.kind === run.kind) last.text += run.text;
    else if (run.text) out.push({ ...run });
  };
  let word = 0;
  for (const piece of pieces) {
    if (!piece.space) {
      for (const run of runs[word] ?? [{ text: piece.text, kind: 'unchecked' }]) push(run);
      word++;
      continue;
    }
    const before = out.at(-1)?.kind;
    const after = runs[word]?.[0]?.kind ?? 'unchecked';
    push({ text: piece.text, kind: before === after ? after : before === 'unchecked' || after === 'unchecked' ? 'unchecked' : 'same' });
  }
  return out;
}

/**
 * Compares two answers and marks, in each, what the other does not have: by word for Latin (and
 * other) text, by phrase for Korean, and within a changed short Korean phrase by character where
 * most of it is shared. Whitespace and line breaks are not compared. Only the first
 * {@link MAX_DIFF_WORDS} words of each answer are compared; the rest is `unchecked`. Markdown is
 * compared as the text it is written in.
 */
export function diffAnswers(a: string, b: string): AnswerDiff {
  const aPieces = piecesOf(a);
  const bPieces = piecesOf(b);
  const aWords = aPieces.filter((p) => !p.space).map((p) => p.text);
  const bWords = bPieces.filter((p) => !p.space).map((p) => p.text);
  const cut = aWords.length > MAX_DIFF_WORDS || bWords.length > MAX_DIFF_WORDS;
  const aChecked = aWords.slice(0, MAX_DIFF_WORDS);
  const bChecked = bWords.slice(0, MAX_DIFF_WORDS);
  const found = hunksOf(aChecked, bChecked);
  const hunks = foldChanceMatches(found.hunks, aChecked, bChecked);
  return {
    a: assemble(aPieces, wordRuns(hunks, aChecked, bChecked, 'a')),
    b: assemble(bPieces, wordRuns(hunks, bChecked, aChecked, 'b')),
    cut,
    unrelated: found.unrelated,
  };
}
