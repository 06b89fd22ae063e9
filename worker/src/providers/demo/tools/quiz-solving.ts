/**
 * Quiz: every part of the question answered. Atlas tabulates the parts and lists its evidence;
 * Sonnet talks through each part in turn and checks a calculation backwards.
 */
import type { Ctx, ToolWriters } from '../context.ts';
import { formal, jo } from '../korean.ts';
import { bullets, md, numbered, table } from '../markdown.ts';
import type { Solved } from '../solve.ts';
import { checkBackwards, solveParts } from '../solve.ts';

const EN_COUNT = ['zero', 'one', 'two', 'three', 'four', 'five', 'six'];
const KO_COUNT = ['', '한', '두', '세', '네', '다섯', '여섯'];

const finalAnswer = (solved: Solved[], unknown: string): string =>
  solved.map((s, i) => `${solved.length > 1 ? `${i + 1}) ` : ''}${s.kind === 'unknown' ? unknown : s.answer}`).join(solved.length > 1 ? ' · ' : '');

const atlasEn = (c: Ctx): string => {
  const solved = solveParts(c.text, 'en');
  const kind = (s: Solved) => (s.kind === 'calc' ? `Calculation: ${s.calc.expr}` : s.kind === 'fact' ? 'Fact' : 'Needs a lookup');
  return md(
    '## Quiz Breakdown',
    solved.length > 1 ? `The question has ${EN_COUNT[solved.length] ?? solved.length} parts; each is answered on its own.\n` : false,
    table(['Part', 'Type', 'Answer'], solved.map((s, i) => [i + 1, kind(s), s.kind === 'unknown' ? '—' : `**${s.answer}**`])),
    '',
    '### Evidence',
    ...numbered(
      solved.map((s) =>
        s.kind === 'calc' ? `${s.calc.expr} = ${s.calc.text}${s.calc.approx ? ' (rounded)' : ''}.` : s.kind === 'fact' ? s.fact.note.en : 'Not in this demo model’s offline facts, so no answer is given rather than a guess. Rule out every option that contradicts a clue, then confirm the rest in a reference.',
      ),
    ),
    '',
    `**Answer: ${finalAnswer(solved, 'not determined')}**`,
  );
};

const sonnetEn = (c: Ctx): string => {
  const solved = solveParts(c.text, 'en');
  const ord = ['First', 'Then', 'And finally'];
  const lines = solved.map((s, i) => {
    const lead = solved.length > 1 ? `${ord[Math.min(i, 2)]}, ` : '';
    if (s.kind === 'calc') {
      const back = checkBackwards(s.calc);
      return `${lead}the arithmetic: ${s.calc.expr} comes to ${s.calc.text}${s.calc.approx ? ' (rounded to four decimals)' : ''}.${back ? ` Working it backwards, ${back}, so it holds.` : ''}`;
    }
    if (s.kind === 'fact') return `${lead}${s.fact.note.en} So the answer there is ${s.answer}.`;
    return `${solved.length > 1 ? `${lead}a part I can’t settle honestly` : 'This is one I can’t settle honestly'}: I have no way to look it up, and a confident guess would be worse than none. If you have answer options, cross out any that clash with even one clue; the survivor is usually right.`;
  });
  return md(
    solved.length > 1 ? `There are ${EN_COUNT[solved.length] ?? solved.length} questions folded into one here, so let’s take them in turn.\n` : 'Let’s reason it through.\n',
    ...lines.map((l) => `${l}\n`),
    `**Answer: ${finalAnswer(solved, 'unknown (needs a lookup)')}**`,
    '',
    'Quiz wording sometimes hides a trap, such as a “not” or a date range, so it is worth one more read before you lock it in. Did the question come with options?',
  );
};

const atlasKo = (c: Ctx): string => {
  const solved = solveParts(c.text, 'ko');
  const kind = (s: Solved) => (s.kind === 'calc' ? `계산: ${s.calc.expr}` : s.kind === 'fact' ? '사실 확인' : '자료 확인 필요');
  return md(
    '## 퀴즈 풀이',
    solved.length > 1 ? `문제가 ${KO_COUNT[solved.length] ?? solved.length} 개로 이루어져 있어 하나씩 답합니다.\n` : false,
    table(['문항', '유형', '답'], solved.map((s, i) => [i + 1, kind(s), s.kind === 'unknown' ? '—' : `**${s.answer}**`])),
    '',
    '### 근거',
    ...numbered(
      solved.map((s) =>
        s.kind === 'calc' ? `${s.calc.expr} = ${s.calc.text}${s.calc.approx ? ' (반올림)' : ''}.` : s.kind === 'fact' ? formal(s.fact.note.ko) : '데모 모델이 가진 자료에 없는 내용이라, 추측 대신 답을 비워 둡니다. 단서와 어긋나는 보기를 먼저 지우고, 남은 것을 자료로 확인하세요.',
      ),
    ),
    '',
    `**정답: ${finalAnswer(solved, '확인 필요')}**`,
  );
};

const sonnetKo = (c: Ctx): string => {
  const solved = solveParts(c.text, 'ko');
  const ord = ['먼저', '다음으로', '마지막으로'];
  const lines = solved.map((s, i) => {
    const lead = solved.length > 1 ? `${ord[Math.min(i, 2)]} ` : '';
    if (s.kind === 'calc') {
      const back = checkBackwards(s.calc);
      return `${lead}계산 문제예요. ${jo(s.calc.expr, '은')} ${jo(s.calc.text, '이에요')}.${back ? ` 거꾸로 계산해도 ${jo(back, '이')} 되니 맞아요.` : ''}`;
    }
    if (s.kind === 'fact') return `${lead}${s.fact.note.ko} 그러니 답은 ${jo(s.answer, '이에요')}.`;
    return `${lead}${solved.length > 1 ? '이 부분은' : '이 문제는'} 솔직히 확답을 못 드려요. 찾아볼 방법이 없는데, 그럴듯한 추측은 모르는 것보다 나쁘니까요. 보기가 있다면 단서와 하나라도 어긋나는 걸 지워 보세요. 끝까지 남는 보기가 대개 정답이에요.`;
  });
  return md(
    solved.length > 1 ? `질문 ${KO_COUNT[solved.length] ?? solved.length} 개가 한데 묶여 있으니 차례로 풀어 볼게요.\n` : '차근차근 풀어 볼게요.\n',
    ...lines.map((l) => `${l}\n`),
    `**정답: ${finalAnswer(solved, '모름 (확인 필요)')}**`,
    '',
    ...bullets(['퀴즈에는 “아닌 것”이나 기간 같은 함정이 숨어 있곤 하니, 답을 정하기 전에 한 번 더 읽어 보세요.']),
    '',
    '보기가 있는 문제였나요?',
  );
};

export const quizSolving: ToolWriters = { atlas: { en: atlasEn, ko: atlasKo }, sonnet: { en: sonnetEn, ko: sonnetKo } };
