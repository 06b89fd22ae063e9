/**
 * Math from a photo. The demo models cannot read images and say so; an equation or calculation
 * typed in the note is solved exactly, otherwise each model works its own sample problem. Atlas
 * uses the quadratic formula in numbered steps; Sonnet factors (or completes the square) and
 * explains why each move works.
 */
import type { Language } from '@duet/contracts';
import type { Ctx, ToolWriters } from '../context.ts';
import { findCalculation } from '../arithmetic.ts';
import type { Equation } from '../equation.ts';
import { findEquation, latex, num, solve } from '../equation.ts';
import { jo, josa } from '../korean.ts';
import { fmt, md } from '../markdown.ts';

const SAMPLES: Equation[] = [
  { variable: 'x', a: 1, b: -5, c: 6 },
  { variable: 'x', a: 1, b: -7, c: 12 },
  { variable: 'x', a: 2, b: 3, c: -2 },
  { variable: 'x', a: 1, b: 1, c: -6 },
];

const FORMULA = '$$x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$$';

function opening(c: Ctx, typed: boolean): string {
  const ko = c.lang === 'ko';
  if (typed && c.persona === 'atlas') return ko ? `${c.hasImage ? '이미지는 읽지 못하므로 ' : ''}메모의 식을 풉니다.` : `${c.hasImage ? 'Images can’t be read here, so this ' : 'This '}solves the equation from the note.`;
  if (typed) return ko ? `${c.hasImage ? '사진 속 글씨는 제가 볼 수 없지만, ' : ''}적어 주신 식이 있으니 그걸로 같이 풀어 봐요.` : `${c.hasImage ? 'I can’t make out the photo itself, but ' : ''}you typed the equation, so let’s work it out together.`;
  if (c.persona === 'atlas')
    return ko ? `${c.hasImage ? '사진을 받았지만 데모 모델은 이미지를 읽지 못합니다.' : '사진이 첨부되지 않았습니다.'} 같은 유형의 대표 문제를 단계별로 풉니다.` : `${c.hasImage ? 'Photo received, but this demo model can’t read images.' : 'No photo came through.'} Here is a typical problem of this kind, step by step.`;
  return ko
    ? `${c.hasImage ? '사진 고마워요! 솔직히 말씀드리면 데모 모델이라 이미지 속 문제를 읽지는 못해요.' : '사진이 보이지 않네요.'} 대신 비슷한 문제 하나를 같이 풀어 볼게요. 방법은 그대로 옮겨 쓸 수 있어요.`
    : `${c.hasImage ? 'Thanks for the photo! I should be upfront: as a demo model I can’t actually read images.' : 'The photo didn’t come through.'} Let’s work through a similar problem together instead; the method carries straight over.`;
}

const answerOf = (e: Equation, roots: number[], lang: Language): string =>
  roots.length ? roots.map((r) => `$${e.variable} = ${num(r)}$`).join(lang === 'ko' ? ' 또는 ' : ' or ') : lang === 'ko' ? '실근 없음' : 'no real solution';

function atlas(c: Ctx, e: Equation, typed: boolean): string {
  const ko = c.lang === 'ko';
  const roots = solve(e);
  const v = e.variable;
  const steps =
    e.a === 0
      ? [`$$${num(e.b)}${v} = ${num(-e.c)}$$`, `$$${v} = ${num(-e.c / e.b)}$$`]
      : [
          ko ? '**근의 공식**' : '**Quadratic formula**',
          FORMULA.replace(/x =/, `${v} =`),
          `$$D = b^2 - 4ac = (${num(e.b)})^2 - 4 \\cdot ${num(e.a)} \\cdot (${num(e.c)}) = ${num(e.b * e.b - 4 * e.a * e.c)}$$`,
          roots.length ? `$$${v} = \\frac{${num(-e.b)} \\pm \\sqrt{${num(e.b * e.b - 4 * e.a * e.c)}}}{${num(2 * e.a)}}$$` : ko ? '판별식이 음수이므로 실근이 없습니다.' : 'The discriminant is negative, so there is no real root.',
        ];
  const check = roots.map((r) => `$${num(e.a)}(${num(r)})^2 + (${num(e.b)})(${num(r)}) + (${num(e.c)}) = ${num(e.a * r * r + e.b * r + e.c)}$`);
  return md(
    ko ? '## 풀이' : '## Solution',
    opening(c, typed),
    '',
    ko ? '### 1. 문제' : '### 1. Problem',
    `$$${latex(e)}$$`,
    '',
    ko ? '### 2. 풀이' : '### 2. Steps',
    ...steps,
    '',
    ko ? '### 3. 검산' : '### 3. Check',
    ...(e.a === 0 ? [`$${num(e.b)} \\cdot ${num(roots[0] ?? 0)} + (${num(e.c)}) = 0$ ✅`] : check.map((l) => `${l} ✅`)),
    '',
    `**${ko ? '최종 답' : 'Final answer'}: ${answerOf(e, roots, c.lang)}**`,
  );
}

/** Integer roots give a factorisation: a(x − r1)(x − r2). */
function factored(e: Equation, roots: number[]): string | undefined {
  if (e.a === 0 || roots.length !== 2 || !roots.every(Number.isInteger)) return undefined;
  const f = (r: number) => `(${e.variable} ${r < 0 ? '+' : '-'} ${Math.abs(r)})`;
  return `${e.a === 1 ? '' : num(e.a)}${f(roots[0] ?? 0)}${f(roots[1] ?? 0)} = 0`;
}

function sonnet(c: Ctx, e: Equation, typed: boolean): string {
  const ko = c.lang === 'ko';
  const roots = solve(e);
  const v = e.variable;
  const f = factored(e, roots);
  let body: string[];
  if (e.a === 0) {
    body = ko
      ? [`일차방정식이라 ${v}만 한쪽에 남기면 돼요. 상수를 넘기고 계수로 나누면:`, '', `$$${v} = \\frac{${num(-e.c)}}{${num(e.b)}} = ${num(-e.c / e.b)}$$`]
      : [`It’s linear, so the goal is to get ${v} alone: move the constant across, then divide by the coefficient.`, '', `$$${v} = \\frac{${num(-e.c)}}{${num(e.b)}} = ${num(-e.c / e.b)}$$`];
  } else if (f) {
    const [r1 = 0, r2 = 0] = roots;
    body = ko
      ? [`공식보다 인수분해가 빠른 경우예요. ${e.a === 1 ? '' : '양변을 a로 나눈 뒤 '}곱해서 ${fmt(e.c / e.a)}, 더해서 ${jo(fmt(-e.b / e.a), '이')} 되는 두 수를 찾으면 ${jo(fmt(r1), '과')} ${jo(fmt(r2), '이에요')}.`, '', `$$${f}$$`, '', '곱이 0이 되려면 둘 중 하나가 0이어야 하니, 괄호마다 0으로 놓으면 답이 나와요.']
      : [`This one factors, which is quicker than the formula. We need two numbers that multiply to ${fmt(e.c / e.a)} and add to ${fmt(-e.b / e.a)}${e.a === 1 ? '' : ' (after dividing through by a)'}: ${fmt(r1)} and ${fmt(r2)}.`, '', `$$${f}$$`, '', 'A product is zero only when one of its factors is zero, so each bracket gives one solution.'];
  } else {
    const h = -e.b / (2 * e.a);
    const k = (e.b * e.b - 4 * e.a * e.c) / (4 * e.a * e.a);
    body = ko
      ? ['인수분해가 깔끔하지 않아서 완전제곱식으로 바꿔 볼게요.', '', `$$(${v} ${h < 0 ? '+' : '-'} ${num(Math.abs(h))})^2 = ${num(k)}$$`, '', roots.length ? '양변에 제곱근을 씌우면 답이 나와요.' : '오른쪽이 음수라 실수 범위에서는 해가 없어요.']
      : ['It doesn’t factor neatly, so let’s complete the square instead.', '', `$$(${v} ${h < 0 ? '+' : '-'} ${num(Math.abs(h))})^2 = ${num(k)}$$`, '', roots.length ? 'Taking the square root of both sides gives the answers.' : 'The right side is negative, so there is no real solution.'];
  }
  return md(
    `${opening(c, typed)}\n`,
    ko ? `식은 ${jo(`$${latex(e)}$`, '이에요')}.\n` : `The equation is $${latex(e)}$.\n`,
    ...body,
    '',
    roots.length ? (ko ? `검산: ${roots.map((r) => `${v} = ${fmt(r, 4)}`).join(', ')}${josa(fmt(roots.at(-1) ?? 0, 4), '을')}${roots.length > 1 ? ' 각각' : ''} 넣으면 좌변이 0이 돼요.` : `Check: substituting ${roots.map((r) => `${v} = ${fmt(r, 4)}`).join(' and ')} makes the left side 0.`) : false,
    '',
    `**${ko ? '최종 답' : 'Final answer'}: ${answerOf(e, roots, c.lang)}**`,
    '',
    ko ? (typed ? '다른 문제도 풀어 볼까요?' : '사진 속 문제를 식으로 적어 주시면 그 문제로 다시 풀어 드릴까요?') : typed ? 'Shall we try another?' : 'Could you type the equation from your photo, so I can solve that exact one?',
  );
}

function write(c: Ctx): string {
  const typed = findEquation(c.text);
  if (!typed) {
    const calc = findCalculation(c.text);
    if (calc) {
      const ko = c.lang === 'ko';
      return c.persona === 'atlas'
        ? md(ko ? '## 풀이' : '## Solution', opening(c, true), '', `$$${calc.expr.replace(/×/g, '\\times').replace(/÷/g, '\\div')} = ${calc.text}$$`, '', `**${ko ? '최종 답' : 'Final answer'}: ${calc.text}**`)
        : md(`${opening(c, true)}\n`, ko ? `${jo(calc.expr, '을')} 차례로 계산하면 ${jo(calc.text, '이')} 나와요.` : `Working ${calc.expr} through in order gives ${calc.text}.`, '', `**${ko ? '최종 답' : 'Final answer'}: ${calc.text}**`, '', ko ? '다른 문제도 있나요?' : 'Anything else to solve?');
    }
  }
  const e = typed ?? c.pick(c.own(SAMPLES));
  return c.persona === 'atlas' ? atlas(c, e, !!typed) : sonnet(c, e, !!typed);
}

export const mathSolve: ToolWriters = { atlas: { en: write, ko: write }, sonnet: { en: write, ko: write } };
