// Over 300 lines on purpose: the demo models' answers for every tool in both languages, the word-chain game and the stream, in one suite.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BattleInputs, Language, ModelSpec } from '@duet/contracts';
import { DEMO_ROSTER } from '@duet/platform/roster-settings';
import type { ChatRequest, StreamChunk } from '../provider.ts';
import { createDemoProvider, demoAnswer } from './index.ts';

const [ATLAS, SONNET] = DEMO_ROSTER as [ModelSpec, ModelSpec];
const HANGUL = /[가-힣]/;
const FAST = 1000;

interface Case {
  tool: string;
  inputs: BattleInputs;
  text: string;
  hasImage: boolean;
  /** Strings the answer must hold: the visitor's inputs (title, keywords, genre) or the checkable answer. */
  expect: string[];
}

const CASES: Record<Language, Case[]> = {
  en: [
    { tool: 'title-academy', inputs: {}, text: 'my cat on a skateboard', hasImage: true, expect: ['photo'] },
    { tool: 'makeLyrics', inputs: { poemTitle: 'Harbor Lights', keywords: ['lighthouse', 'salt', 'letters'], genre: 'ballad' }, text: '', hasImage: false, expect: ['Harbor Lights', 'lighthouse', 'salt', 'letters'] },
    { tool: 'quiz-solving', inputs: {}, text: 'Which planet is known as the Red Planet?', hasImage: false, expect: ['Mars'] },
    { tool: 'game-ending-word', inputs: {}, text: 'apple', hasImage: false, expect: ['apple'] },
    { tool: 'netflix-recommend', inputs: { category: 'film', genre: 'thriller' }, text: '', hasImage: false, expect: ['thriller'] },
    { tool: 'instagram-reels-idea', inputs: { keywords: ['coffee', 'morning'] }, text: '', hasImage: false, expect: ['coffee', 'morning'] },
    { tool: 'math-solve', inputs: {}, text: 'solve for x please', hasImage: true, expect: ['image'] },
    { tool: 'influencer-writing', inputs: { keywords: ['crunchy', 'vegan'] }, text: 'Write a post promoting our new protein bar', hasImage: false, expect: ['our new protein bar', 'crunchy', 'vegan'] },
    { tool: 'docent', inputs: {}, text: 'the woman in the blue dress', hasImage: true, expect: ['brush'] },
    { tool: 'rap-lyrics', inputs: { poemTitle: 'Concrete Dreams', keywords: ['subway', 'hustle'] }, text: '', hasImage: false, expect: ['Concrete Dreams', 'subway', 'hustle'] },
    { tool: 'accounting-solving', inputs: {}, text: 'A machine costs 1,000,000 with residual value 100,000 and a useful life of 5 years. Find annual depreciation.', hasImage: false, expect: ['180,000'] },
    { tool: 'excel-solving', inputs: {}, text: 'How do I sum sales by product?', hasImage: false, expect: ['1,700', '```excel'] },
    { tool: 'anything-question', inputs: {}, text: 'Why is the sky blue?', hasImage: false, expect: ['Rayleigh'] },
  ],
  ko: [
    { tool: 'title-academy', inputs: {}, text: '스케이트보드 타는 고양이', hasImage: true, expect: ['사진'] },
    { tool: 'makeLyrics', inputs: { poemTitle: '바다의 편지', keywords: ['등대', '소금', '편지'] }, text: '', hasImage: false, expect: ['바다의 편지', '등대', '소금', '편지'] },
    { tool: 'quiz-solving', inputs: {}, text: '붉은 행성이라고 불리는 행성은?', hasImage: false, expect: ['화성'] },
    { tool: 'game-ending-word', inputs: {}, text: '사과', hasImage: false, expect: ['사과'] },
    { tool: 'netflix-recommend', inputs: { category: 'drama', genre: '로맨스' }, text: '', hasImage: false, expect: ['로맨스'] },
    { tool: 'instagram-reels-idea', inputs: { keywords: ['커피', '아침'] }, text: '', hasImage: false, expect: ['커피', '아침'] },
    { tool: 'math-solve', inputs: {}, text: '풀이 과정을 자세히', hasImage: true, expect: ['이미지'] },
    { tool: 'influencer-writing', inputs: { keywords: ['바삭함', '비건'] }, text: '새로 나온 단백질 바 홍보 글 써 줘', hasImage: false, expect: ['새로 나온 단백질 바', '바삭함', '비건'] },
    { tool: 'docent', inputs: {}, text: '파란 옷을 입은 여인', hasImage: true, expect: ['작품'] },
    { tool: 'rap-lyrics', inputs: { poemTitle: '콘크리트 꿈', keywords: ['지하철', '열정'] }, text: '', hasImage: false, expect: ['콘크리트 꿈', '지하철', '열정'] },
    { tool: 'accounting-solving', inputs: {}, text: '취득원가 1,000,000원, 잔존가치 100,000원, 내용연수 5년인 기계의 연간 감가상각비는?', hasImage: false, expect: ['취득원가', '180,000'] },
    { tool: 'excel-solving', inputs: {}, text: '중복된 이름을 표시하고 싶어요', hasImage: false, expect: ['```excel'] },
    { tool: 'anything-question', inputs: {}, text: '하늘은 왜 파란가요?', hasImage: false, expect: ['레일리 산란'] },
  ],
};

const context = (lang: Language, c: Pick<Case, 'tool' | 'inputs' | 'text' | 'hasImage'>): ChatRequest['context'] => ({
  tool: c.tool,
  lang,
  inputs: c.inputs,
  text: c.text,
  hasImage: c.hasImage,
});

function request(ctx: ChatRequest['context'], over: Partial<ChatRequest> = {}): ChatRequest {
  return { system: 'system prompt', user: 'user prompt', maxTokens: 2000, signal: new AbortController().signal, context: ctx, ...over };
}

async function collect(stream: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const out: StreamChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

const textOf = (chunks: StreamChunk[]): string => chunks.map((c) => (c.type === 'text' ? c.text : '')).join('');
const pendingTimeouts = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
/** The word the game answer plays: the first bold span. */
const playedWord = (answer: string): string | undefined => /\*\*([^*]+)\*\*/.exec(answer)?.[1];

const quiz = context('en', CASES.en[2] as Case);

describe('demo answers', () => {
  it('gives the same answer to the same question, streamed or not', async () => {
    const provider = createDemoProvider(ATLAS, { speed: FAST });
    const first = textOf(await collect(provider.stream(request(quiz))));
    const second = textOf(await collect(provider.stream(request(quiz))));
    expect(first).toBe(second);
    expect(first).toBe(demoAnswer('atlas', quiz));
  });

  it('differs between questions and between the two models', () => {
    expect(demoAnswer('atlas', quiz)).not.toBe(demoAnswer('sonnet', quiz));
    expect(demoAnswer('atlas', quiz)).not.toBe(demoAnswer('atlas', { ...quiz, text: 'Which planet has the most moons?' }));
  });

  it('writes atlas structured and sonnet as prose with a closing question', () => {
    for (const lang of ['en', 'ko'] as const) {
      for (const c of CASES[lang]) {
        const atlas = demoAnswer('atlas', context(lang, c));
        const sonnet = demoAnswer('sonnet', context(lang, c));
        expect(atlas, `${lang} ${c.tool}`).toMatch(/^> \*/);
        expect(atlas, `${lang} ${c.tool}`).toMatch(/^#{2,3} .+\n[\s\S]*(\*\*|^\d+\. |^\| )/m);
        expect(sonnet, `${lang} ${c.tool}`).toMatch(/\?/);
        expect(sonnet.split('\n').at(-1)).toMatch(/^\*\(.+\)\*$/);
      }
    }
  });

  it('falls back to the atlas style for any other model name', () => {
    expect(demoAnswer('mystery-model', quiz)).toMatch(/^> \*Demo model answer/);
  });

  it('answers every tool in both languages, in that language, using the inputs', () => {
    for (const lang of ['en', 'ko'] as const) {
      for (const c of CASES[lang]) {
        for (const model of ['atlas', 'sonnet']) {
          const answer = demoAnswer(model, context(lang, c));
          const where = `${model} ${lang} ${c.tool}`;
          const words = answer.split(/\s+/).length;
          expect(words, where).toBeGreaterThan(25);
          expect(words, where).toBeLessThan(350);
          if (lang === 'ko') expect(answer, where).toMatch(HANGUL);
          else expect(answer, where).not.toMatch(HANGUL);
          for (const s of c.expect) expect(answer.toLowerCase(), `${where}: ${s}`).toContain(s.toLowerCase());
          expect(answer, where).toMatch(lang === 'ko' ? /데모 모델/ : /demo model/i);
        }
      }
    }
  });

  it('acknowledges the image on the image tools', () => {
    for (const tool of ['title-academy', 'docent', 'math-solve']) {
      for (const model of ['atlas', 'sonnet']) {
        expect(demoAnswer(model, { tool, lang: 'en', inputs: {}, text: '', hasImage: true })).toMatch(/photo|image|picture/i);
        expect(demoAnswer(model, { tool, lang: 'ko', inputs: {}, text: '', hasImage: true })).toMatch(/사진|이미지/);
      }
    }
  });

  it('includes LaTeX for math and a formula block for spreadsheets', () => {
    for (const model of ['atlas', 'sonnet']) {
      expect(demoAnswer(model, context('en', CASES.en[6] as Case))).toMatch(/\$\$[^$]+\$\$/);
      expect(demoAnswer(model, context('ko', CASES.ko[11] as Case))).toMatch(/```excel\n=/);
    }
    expect(demoAnswer('atlas', context('en', CASES.en[6] as Case))).toContain('$$x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$$');
  });

  it('writes the lyrics in inputs.language when it is set', () => {
    const ctx = context('ko', { tool: 'makeLyrics', inputs: { poemTitle: 'Blue Hour', keywords: ['river'], language: 'en' }, text: '', hasImage: false });
    const answer = demoAnswer('atlas', ctx);
    expect(answer).toMatch(/the river/);
    expect(answer).toContain('영어');
  });

  it('never names a model or its maker, even when the question does', () => {
    const maker = /gpt|openai|claude|anthropic/i;
    for (const lang of ['en', 'ko'] as const) {
      for (const c of CASES[lang]) {
        for (const model of ['atlas', 'sonnet', 'other']) expect(demoAnswer(model, context(lang, c))).not.toMatch(maker);
      }
    }
    for (const model of ['atlas', 'sonnet']) {
      expect(demoAnswer(model, { ...quiz, text: 'Is ChatGPT better than Claude or Anthropic models?' })).not.toMatch(maker);
      // The word-chain game repeats the visitor's word: a maker's name in it is scrubbed.
      const played = demoAnswer(model, { tool: 'game-ending-word', lang: 'en', inputs: {}, text: 'ChatGPT', hasImage: false });
      expect(played).not.toMatch(maker);
      expect(played).toContain('[a model]');
    }
  });
});

describe('word-chain game', () => {
  const play = (lang: Language, word: string, model = 'atlas') =>
    demoAnswer(model, { tool: 'game-ending-word', lang, inputs: {}, text: word, hasImage: false });

  it.each([
    ['ko', '사과', ['과']],
    ['ko', '기차', ['차']],
    ['ko', '노래', ['래', '내']],
    ['en', 'apple', ['e']],
    ['en', 'banana', ['a']],
    ['en', 'Quiz!', ['z']],
  ] as const)('%s: answers %s with a word starting with %j', (lang, word, starts) => {
    for (const model of ['atlas', 'sonnet']) {
      const played = playedWord(play(lang, word, model));
      expect(played, model).toBeDefined();
      expect(starts.some((s) => played?.startsWith(s)), `${model} played ${played}`).toBe(true);
      expect(played).not.toBe(word);
    }
  });

  it('admits defeat gracefully when it knows no word', () => {
    const atlas = play('ko', '구름');
    expect(atlas).toContain('름');
    expect(atlas).toMatch(/찾지 못했습니다/);
    expect(play('ko', '구름', 'sonnet')).toMatch(/승리/);
    expect(play('en', '1234')).toMatch(/no letter to chain from/);
  });
});

describe('demo stream', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('streams small chunks in order that add up to the whole answer, then usage, then finish', async () => {
    const ctx = context('ko', CASES.ko[1] as Case);
    const chunks = await collect(createDemoProvider(SONNET, { speed: FAST }).stream(request(ctx)));
    const texts = chunks.filter((c) => c.type === 'text');
    expect(texts.length).toBeGreaterThan(30);
    expect(textOf(chunks)).toBe(demoAnswer('sonnet', ctx));
    for (const c of texts) expect(Array.from(c.text.trim()).length).toBeLessThanOrEqual(8);
    expect(chunks.slice(texts.length).map((c) => c.type)).toEqual(['usage', 'finish']);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    const usage = chunks.at(-2);
    expect(usage).toMatchObject({ type: 'usage', inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect(usage?.type === 'usage' && usage.outputTokens).toBeGreaterThan(50);
  });

  it('stops near maxTokens and finishes with length', async () => {
    const full = demoAnswer('atlas', quiz);
    const chunks = await collect(createDemoProvider(ATLAS, { speed: FAST }).stream(request(quiz, { maxTokens: 20 })));
    const text = textOf(chunks);
    expect(text.length).toBeGreaterThan(0);
    expect(full.startsWith(text)).toBe(true);
    expect(text.length).toBeLessThan(full.length);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'length' });
    const usage = chunks.find((c) => c.type === 'usage');
    expect(usage?.type === 'usage' && usage.outputTokens).toBeLessThanOrEqual(20);
  });

  it('stops promptly mid-stream when aborted and yields no text after', async () => {
    const ac = new AbortController();
    const timersBefore = pendingTimeouts();
    const stream = createDemoProvider(SONNET, { speed: 5 }).stream(request(quiz, { signal: ac.signal }));
    const after: StreamChunk[] = [];
    let seen = 0;
    let abortedAt = 0;
    for await (const chunk of stream) {
      if (abortedAt) after.push(chunk);
      else if (chunk.type === 'text' && ++seen === 5) {
        ac.abort();
        abortedAt = performance.now();
      }
    }
    expect(performance.now() - abortedAt).toBeLessThan(50);
    expect(after.map((c) => c.type)).toEqual(['usage', 'finish']);
    expect(after.at(-1)).toEqual({ type: 'finish', reason: 'cancelled' });
    expect(pendingTimeouts()).toBeLessThanOrEqual(timersBefore);
  });

  it('cancels during the wait for the first token without leaving a timer behind', async () => {
    const ac = new AbortController();
    const timersBefore = pendingTimeouts();
    const started = performance.now();
    setTimeout(() => ac.abort(), 20);
    const chunks = await collect(createDemoProvider(ATLAS, { speed: 1 }).stream(request(quiz, { signal: ac.signal })));
    expect(performance.now() - started).toBeLessThan(200);
    expect(chunks.map((c) => c.type)).toEqual(['usage', 'finish']);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'cancelled' });
    expect(pendingTimeouts()).toBeLessThanOrEqual(timersBefore);
  });

  it('yields no text when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const chunks = await collect(createDemoProvider(ATLAS).stream(request(quiz, { signal: ac.signal })));
    expect(chunks).toEqual([
      { type: 'usage', inputTokens: expect.any(Number), outputTokens: 0 },
      { type: 'finish', reason: 'cancelled' },
    ]);
  });

  it('paces like a live model: first token after 350–700 ms, then 30–60 tokens a second', async () => {
    vi.useFakeTimers();
    const it = createDemoProvider(ATLAS).stream(request(quiz))[Symbol.asyncIterator]();
    const next = async (): Promise<IteratorResult<StreamChunk>> => {
      let result: IteratorResult<StreamChunk> | undefined;
      void it.next().then((r) => (result = r));
      await vi.advanceTimersByTimeAsync(0);
      while (!result) await vi.advanceTimersToNextTimerAsync();
      return result;
    };
    const t0 = Date.now();
    const first = await next();
    expect(first.value).toMatchObject({ type: 'text' });
    const ttft = Date.now() - t0;
    expect(ttft).toBeGreaterThanOrEqual(350);
    expect(ttft).toBeLessThanOrEqual(700);

    let usage: StreamChunk | undefined;
    for (let r = await next(); !r.done; r = await next()) if (r.value.type === 'usage') usage = r.value;
    const seconds = (Date.now() - t0 - ttft) / 1000;
    const tokens = usage?.type === 'usage' ? (usage.outputTokens ?? 0) : 0;
    expect(tokens / seconds).toBeGreaterThan(28);
    expect(tokens / seconds).toBeLessThan(62);
  });

  it('divides every delay by opts.speed', async () => {
    const started = performance.now();
    await collect(createDemoProvider(ATLAS, { speed: 50 }).stream(request(quiz)));
    // About 0.5 s of first-token wait plus ~5 s of streaming at speed 1, so well under a second at 50.
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
