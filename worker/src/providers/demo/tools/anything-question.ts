/**
 * Ask anything. A known science question gets a real answer (atlas: the short answer and key
 * points; sonnet: an example you can try, then the explanation); calculations and known facts are
 * answered; anything else gets a brief “I can't check this” and a way to find out.
 */
import type { Language } from '@duet/contracts';
import type { Bi, Ctx, ToolWriters } from '../context.ts';
import { formal, jo } from '../korean.ts';
import { md, numbered } from '../markdown.ts';
import { checkBackwards, solveParts } from '../solve.ts';
import type { Topic } from './topics.ts';
import { topicFor } from './topics.ts';

type Kind = 'compare' | 'how' | 'why' | 'what';
const kindOf = (t: string): Kind =>
  /\bvs\.?\b|versus|better|which|compare|차이|비교|뭐가 나|어느|어떤 게/i.test(t) ? 'compare' : /\bhow\b|steps?\b|방법|어떻게|하려면/i.test(t) ? 'how' : /\bwhy\b|reason|왜|이유/i.test(t) ? 'why' : 'what';

/** For a question the models cannot answer: how to find out (atlas) and a worked example of doing so (sonnet). */
const UNKNOWN: Record<Kind, { steps: Bi<string[]>; story: Bi }> = {
  how: {
    steps: {
      en: ['**Define “done”** in one sentence, so you know when to stop.', '**Try the smallest version first**: it exposes problems early and cheaply.', '**Change one thing at a time** and keep what worked.'],
      ko: ['**완료 기준**을 한 문장으로 정해 언제 멈출지 알 수 있게 하세요.', '**가장 작은 형태로 먼저** 해 보세요. 문제를 일찍, 싸게 발견합니다.', '**한 번에 하나씩만 바꾸고** 잘된 것은 남기세요.'],
    },
    story: {
      en: 'Take learning to bake bread as an example: rather than a full loaf on day one, people who get there fastest bake one small roll, taste it, change a single thing (more water, a longer rise) and bake again. The same loop of small trial, one change, check again works for most “how do I” questions.',
      ko: '빵 굽기를 배운다고 해 볼게요. 첫날부터 큰 빵을 굽기보다 작은 롤 하나를 구워 맛보고, 물을 조금 더 넣거나 발효를 더 하는 식으로 한 가지만 바꿔 다시 굽는 사람이 가장 빨리 늘어요. 작게 해 보고, 하나만 바꾸고, 다시 확인하는 이 순서는 “어떻게 하나요” 질문 대부분에 통해요.',
    },
  },
  why: {
    steps: {
      en: ['**List every plausible cause**, even unlikely ones.', '**Drop any cause that contradicts a fact you are sure of.**', '**Ask what changed just before it started**: that is often the answer.'],
      ko: ['**그럴듯한 원인을 모두** 적으세요. 가능성이 낮아 보여도요.', '**확실한 사실과 어긋나는 원인은 지우세요.**', '**시작되기 직전에 무엇이 바뀌었는지** 물어보세요. 답일 때가 많습니다.'],
    },
    story: {
      en: 'A doctor facing a puzzling fever works this way: list every cause that could fit, rule out the ones a test contradicts, and look hard at what changed just before it began (a trip, a new medicine). Whatever explains every detail is the best answer, and if two still fit, the question needs more facts rather than a guess.',
      ko: '원인 모를 열을 본 의사는 이렇게 해요. 들어맞을 만한 원인을 모두 적고, 검사 결과와 어긋나는 것을 지우고, 열이 나기 직전에 무엇이 바뀌었는지(여행, 새로 먹은 약) 꼼꼼히 봐요. 모든 사실을 설명하는 원인이 가장 좋은 답이고, 둘이 남으면 추측보다 사실을 더 모아야 해요.',
    },
  },
  compare: {
    steps: {
      en: ['**Cost:** the total over a year, not just the upfront price.', '**Fit:** which option matches how you will actually use it.', '**Risk:** what a wrong choice costs and how easily you can switch.'],
      ko: ['**비용:** 처음 가격이 아니라 1년 동안의 총비용.', '**적합성:** 실제로 어떻게 쓸지에 더 맞는 쪽.', '**위험:** 잘못 골랐을 때의 손해와 바꾸기 쉬운 정도.'],
    },
    story: {
      en: 'Think of choosing between two phones: the cheaper one can cost more over two years once you add a case, storage and a shorter battery life. The trick is to pick the one criterion you care about most, choose on that, and only check that the other option isn’t far ahead on the rest.',
      ko: '휴대폰 두 대 중 하나를 고른다고 해 볼게요. 싼 쪽이 케이스, 저장 공간, 짧은 배터리 수명까지 더하면 2년 뒤엔 더 비쌀 수 있어요. 요령은 가장 중요한 기준 하나로 고르고, 나머지 기준에서 다른 쪽이 크게 앞서지 않는지만 확인하는 거예요.',
    },
  },
  what: {
    steps: {
      en: ['**A plain definition** in everyday words.', '**How it works**, one step at a time.', '**When it matters**: the situations where knowing it changes a decision.'],
      ko: ['**쉬운 말로 된 정의** 한 줄.', '**작동 방식**을 한 단계씩.', '**중요한 때:** 알면 결정이 달라지는 상황.'],
    },
    story: {
      en: 'A good explanation of almost anything has the shape of a recipe card: what the dish is, how it is made, and when you would serve it. If you check a source, look for all three; an answer that only gives the first is usually a definition, not an understanding.',
      ko: '거의 모든 설명은 요리 카드처럼 생겼어요. 무슨 음식인지, 어떻게 만드는지, 언제 내면 좋은지. 자료를 찾아보실 때 이 세 가지가 다 있는지 보세요. 첫 번째만 있으면 이해가 아니라 정의일 뿐인 경우가 많아요.',
    },
  },
};

const HONEST: Record<Language, { atlas: string; sonnet: string }> = {
  en: {
    atlas: 'This demo model can’t check the specifics of this question against a live source, so it won’t guess. How to settle it:',
    sonnet: 'I’d rather be straight with you than sound sure: I can’t look things up, so I can’t give you the specific answer here. What I can do is show how to get one.',
  },
  ko: {
    atlas: '데모 모델이라 이 질문의 구체적인 내용을 실제 자료로 확인할 수 없어 추측하지 않겠습니다. 답을 찾는 방법은 이렇습니다.',
    sonnet: '확신하는 척하기보다 솔직하게 말씀드릴게요. 저는 자료를 찾아볼 수 없어서 이 질문의 구체적인 답은 드리기 어려워요. 대신 답을 찾는 방법을 보여 드릴게요.',
  },
};

/** Calculations and facts found in the question, as lines (atlas: terse; sonnet: sentences with a check); empty when there are none. */
function checkable(c: Ctx): string[] {
  const ko = c.lang === 'ko';
  return solveParts(c.text, c.lang).flatMap((s) => {
    if (s.kind === 'unknown') return [];
    if (c.persona === 'atlas') return s.kind === 'calc' ? [`${s.calc.expr} = **${s.calc.text}**`] : [`**${s.answer}**: ${ko ? formal(s.fact.note.ko) : s.fact.note.en}`];
    if (s.kind === 'fact') return [s.fact.note[c.lang]];
    const back = checkBackwards(s.calc);
    const pct = /(\d[\d,.]*)%/.exec(s.calc.expr)?.[1];
    const share = pct && String(Number(pct.replace(/,/g, '')) / 100);
    return ko
      ? [`${jo(s.calc.expr, '은')} ${jo(s.calc.text, '이에요')}.${back ? ` 거꾸로 ${jo(back, '이')} 되니 맞아요.` : ''}${share ? ` 퍼센트는 100분의 몇이라 ${pct}%는 ${jo(share, '이고')}, 여기에 곱한 값이에요.` : ''}`]
      : [`${s.calc.expr} comes to ${s.calc.text}${back ? `; checking backwards, ${back}` : ''}.${share ? ` A percentage is a share of 100, so ${pct}% is ${share}, and the rest is one multiplication.` : ''}`];
  });
}

function atlas(c: Ctx, topic: Topic | undefined): string {
  const { lang } = c;
  const found = checkable(c);
  const head = lang === 'ko' ? '## 답변' : '## Answer';
  if (topic)
    return md(head, `**${lang === 'ko' ? '핵심' : 'Short answer'}:** ${topic.short[lang]}`, '', lang === 'ko' ? '### 핵심 정리' : '### Key points', ...numbered(topic.points[lang]), ...(found.length ? ['', ...found] : []));
  if (found.length) return md(head, ...(found.length > 1 ? numbered(found) : found));
  const kind = kindOf(c.text);
  return md(head, HONEST[lang].atlas, '', ...numbered(UNKNOWN[kind].steps[lang]), '', lang === 'ko' ? '**다음 단계:** 상황을 한두 문장 더 적어 주시면 그에 맞춰 답하겠습니다.' : '**Next step:** add a sentence or two about your situation for a more specific answer.');
}

function sonnet(c: Ctx, topic: Topic | undefined): string {
  const { lang } = c;
  const found = checkable(c);
  if (topic)
    return md(...topic.story[lang].map((p) => `${p}\n`), ...(found.length ? [...found, ''] : []), lang === 'ko' ? '더 깊이 들어가 볼까요? 궁금한 부분을 말씀해 주세요.' : 'Shall I go deeper into any part of it?');
  if (found.length) return md(...found.map((f) => `${f}\n`), lang === 'ko' ? '다른 부분도 궁금하신가요?' : 'Is there more to the question?');
  return md(`${HONEST[lang].sonnet}\n`, `${UNKNOWN[kindOf(c.text)].story[lang]}\n`, lang === 'ko' ? '상황을 조금 더 알려 주시면 같이 좁혀 볼까요?' : 'Would you tell me a bit more, so we can narrow it down together?');
}

export const anythingQuestion: ToolWriters = {
  atlas: { en: (c) => atlas(c, topicFor(c.text)), ko: (c) => atlas(c, topicFor(c.text)) },
  sonnet: { en: (c) => sonnet(c, topicFor(c.text)), ko: (c) => sonnet(c, topicFor(c.text)) },
};
