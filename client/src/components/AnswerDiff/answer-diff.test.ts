import { describe, expect, it } from 'vitest';
import type { DiffRun } from './answer-diff.ts';
import { diffAnswers, MAX_DIFF_EDITS, MAX_DIFF_WORDS } from './answer-diff.ts';

/** Runs written out: `[only]`, `{unchecked}`, shared text as it is. */
const show = (runs: DiffRun[]): string =>
  runs.map((r) => (r.kind === 'only' ? `[${r.text}]` : r.kind === 'unchecked' ? `{${r.text}}` : r.text)).join('');

const marked = (a: string, b: string) => {
  const d = diffAnswers(a, b);
  return { a: show(d.a), b: show(d.b) };
};

const joined = (runs: DiffRun[]): string => runs.map((r) => r.text).join('');

/** `n` words from a small fixed vocabulary, different for each seed. */
function words(seed: number, n: number, vocabulary = 5_000): string[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return `w${x % vocabulary}`;
  });
}

describe('the difference between two answers', () => {
  it('marks English by whole words, and leaves the words both share unmarked', () => {
    expect(marked('The quick brown fox jumps over the lazy dog.', 'The slow red fox jumps over the dog!')).toEqual({
      a: 'The [quick brown] fox jumps over the [lazy] dog[.]',
      b: 'The [slow red] fox jumps over the dog[!]',
    });
  });

  it('marks a word that differs in one letter as a whole word', () => {
    expect(marked('Use the colour red.', 'Use the color red.')).toEqual({ a: 'Use the [colour] red.', b: 'Use the [color] red.' });
  });

  it('marks Korean by phrase when a phrase changed throughout', () => {
    expect(marked('서울은 한국의 수도예요.', '부산은 한국의 수도예요.')).toEqual({ a: '[서울은] 한국의 수도예요.', b: '[부산은] 한국의 수도예요.' });
  });

  it('marks a short Korean phrase that kept most of itself by character: the particle or the ending alone', () => {
    expect(marked('사과를 먹었어요. 정말 맛있었어요.', '사과가 먹었습니다. 정말 맛있었어요!')).toEqual({
      a: '사과[를] 먹었[어요]. 정말 맛있었어요[.]',
      b: '사과[가] 먹었[습니다]. 정말 맛있었어요[!]',
    });
  });

  it('marks a phrase added in Korean as a whole, with the space inside it', () => {
    expect(marked('오늘은 날씨가 좋아요.', '오늘은 정말 아주 날씨가 좋아요.')).toEqual({ a: '오늘은 날씨가 좋아요.', b: '오늘은 [정말 아주] 날씨가 좋아요.' });
  });

  it('splits mixed Korean and English: Korean by phrase, English by word', () => {
    expect(marked('GPT-4는 빠릅니다. Use Intl.Segmenter here.', 'GPT-4o는 빠릅니다. Use a regex here.')).toEqual({
      a: 'GPT-4는 빠릅니다. Use [Intl.Segmenter] here.',
      b: 'GPT-4[o]는 빠릅니다. Use [a regex] here.',
    });
  });

  it('does not mark a shared "the" between two changed passages, so the differences read as phrases', () => {
    expect(marked('Apples are red and the bananas are yellow', 'Pears are green and the grapes are purple')).toEqual({
      a: '[Apples are red and the bananas are yellow]',
      b: '[Pears are green and the grapes are purple]',
    });
  });

  it('keeps a long shared passage between two changes unmarked', () => {
    expect(marked('Sydney: the capital of Australia is Canberra, not Sydney.', 'Yes: the capital of Australia is Canberra, since 1913.')).toEqual({
      a: '[Sydney]: the capital of Australia is Canberra, [not Sydney].',
      b: '[Yes]: the capital of Australia is Canberra, [since 1913].',
    });
  });

  it('never counts whitespace or line breaks as a difference', () => {
    const d = diffAnswers('One two\n\nthree.', 'One  two three.');
    expect(d.a).toEqual([{ text: 'One two\n\nthree.', kind: 'same' }]);
    expect(d.b).toEqual([{ text: 'One  two three.', kind: 'same' }]);
  });

  it('marks nothing in two identical answers', () => {
    const text = '## 답\n\n하늘이 파란 까닭은 **레일리 산란** 때문이에요.';
    expect(diffAnswers(text, text)).toEqual({ a: [{ text, kind: 'same' }], b: [{ text, kind: 'same' }], cut: false, unrelated: false });
  });

  it('marks the whole of an answer when the other is empty, and gives the empty one no runs', () => {
    expect(diffAnswers('', 'Hello world')).toEqual({ a: [], b: [{ text: 'Hello world', kind: 'only' }], cut: false, unrelated: false });
    expect(diffAnswers('', '')).toEqual({ a: [], b: [], cut: false, unrelated: false });
  });

  it('gives back each answer character for character, whatever it holds', () => {
    const a = '  첫 줄\n- 항목 **굵게**, emoji 👩‍👩‍👧 and 東京に行きます.\n\n```js\nconst x = 1;\n```  ';
    const b = '첫 줄\n- 항목 굵게, emoji 👩‍👩‍👧 and 京都に行きます!\n';
    const d = diffAnswers(a, b);
    expect(joined(d.a)).toBe(a);
    expect(joined(d.b)).toBe(b);
    // Neighbouring runs always differ in kind: a run is as long as it can be.
    for (const runs of [d.a, d.b]) runs.forEach((r, i) => expect(r.kind).not.toBe(runs[i - 1]?.kind));
  });

  it('compares only the first words of a 4,000-word answer and says so, in a moment', () => {
    const long = words(1, 4_000).join(' ');
    const edited = words(1, 4_000)
      .map((w, i) => (i === 10 ? 'changed' : w))
      .join(' ');
    const started = performance.now();
    const d = diffAnswers(long, edited);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(d.cut).toBe(true);
    expect(d.unrelated).toBe(false);
    expect(d.a.map((r) => r.kind)).toEqual(['same', 'only', 'same', 'unchecked']);
    expect(d.b[1]).toEqual({ text: 'changed', kind: 'only' });
    // The unchecked end starts right after the last compared word.
    expect(d.a[2]!.text.trim().split(/\s+/)).toHaveLength(MAX_DIFF_WORDS - 11);
    expect(joined(d.a)).toBe(long);
  });

  it('gives up on two long unrelated answers quickly, marking all it compared as different', () => {
    const a = words(1, 4_000).join(' ');
    const b = words(2, 4_000).join(' ');
    const started = performance.now();
    const d = diffAnswers(a, b);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(d).toMatchObject({ cut: true, unrelated: true });
    expect(d.a.map((r) => r.kind)).toEqual(['only', 'unchecked']);
    expect(d.b.map((r) => r.kind)).toEqual(['only', 'unchecked']);
  });

  it('still marks two long answers that differ in many places, up to the bound', () => {
    const base = words(3, 600, 100_000);
    const edited = base.map((w, i) => (i % 4 === 0 ? `x${w}` : w));
    const d = diffAnswers(base.join(' '), edited.join(' '));
    expect(MAX_DIFF_EDITS).toBeGreaterThanOrEqual(300);
    expect(d.unrelated).toBe(false);
    expect(d.b.filter((r) => r.kind === 'only').map((r) => r.text)).toEqual(edited.filter((_, i) => i % 4 === 0));
  });
});
