/**
 * Accounting: depreciation and VAT worked out from the question's own figures. Atlas sets out the
 * facts, the formula and the journal entry; Sonnet walks through a year-by-year schedule, which
 * doubles as a check (the book value ends at the residual value).
 */
import type { Language } from '@duet/contracts';
import type { Ctx, ToolWriters } from '../context.ts';
import { jo } from '../korean.ts';
import type { Depreciation, Vat } from '../ledger.ts';
import { amountsIn, depreciationOf, vatOf } from '../ledger.ts';
import { fmt, md, table } from '../markdown.ts';

const won = (n: number, lang: Language): string => (lang === 'ko' ? `${fmt(n, 0)}원` : fmt(n, 0));
const pct = (r: number): string => `${fmt(r * 100, 2)}%`;

const METHOD = {
  straight: { en: 'straight-line', ko: '정액법' },
  declining: { en: 'declining-balance', ko: '정률법' },
  double: { en: 'double-declining-balance', ko: '이중체감법' },
  syd: { en: 'sum-of-the-years’-digits', ko: '연수합계법' },
} as const;

function formula(d: Depreciation, lang: Language): string {
  const w = (n: number) => won(n, lang);
  const first = d.schedule[0]?.expense ?? 0;
  if (d.method === 'straight') return `(${w(d.cost)} − ${w(d.residual)}) ÷ ${d.life} = **${w(first)}**`;
  if (d.method === 'syd') return `(${w(d.cost)} − ${w(d.residual)}) × ${d.life}/${(d.life * (d.life + 1)) / 2} = **${w(first)}**`;
  return `${w(d.cost)} × ${pct(d.rate ?? 0)} = **${w(first)}**`;
}

const entry = (lang: Language, dr: string, cr: string, amount: string): string =>
  table(lang === 'ko' ? ['계정', '차변', '대변'] : ['Account', 'Debit', 'Credit'], [[dr, amount, ''], [cr, '', amount]], ['l', 'r', 'r']);

function atlasDep(d: Depreciation, lang: Language): string {
  const w = (n: number) => won(n, lang);
  const first = d.schedule[0]?.expense ?? 0;
  const yearly = d.method === 'straight';
  if (lang === 'ko')
    return md(
      '## 회계 풀이: 감가상각',
      table(['항목', '값'], [['취득원가', w(d.cost)], ['잔존가치', `${w(d.residual)}${d.residualAssumed ? ' (언급이 없어 0으로 가정)' : ''}`], ['내용연수', `${d.life}년`], ['상각 방법', METHOD[d.method].ko]]),
      '',
      '### 계산',
      formula(d, 'ko'),
      '',
      '### 분개 (1차 연도 말)',
      entry('ko', '감가상각비', '감가상각누계액', w(first)),
      '',
      `**정답:** ${yearly ? '매년' : '1차 연도'} 감가상각비 **${w(first)}**`,
    );
  return md(
    '## Accounting Solution: Depreciation',
    table(['Item', 'Value'], [['Cost', w(d.cost)], ['Residual value', `${w(d.residual)}${d.residualAssumed ? ' (not given, assumed 0)' : ''}`], ['Useful life', `${d.life} years`], ['Method', METHOD[d.method].en]]),
    '',
    '### Calculation',
    formula(d, 'en'),
    '',
    '### Journal entry (end of year 1)',
    entry('en', 'Depreciation expense', 'Accumulated depreciation', w(first)),
    '',
    `**Answer:** depreciation of **${w(first)}** ${yearly ? 'per year' : 'in the first year'}`,
  );
}

function sonnetDep(d: Depreciation, lang: Language): string {
  const w = (n: number) => won(n, lang);
  const first = d.schedule[0]?.expense ?? 0;
  const rows = d.schedule.map((r) => [lang === 'ko' ? `${r.year}년` : r.year, w(r.expense), w(r.accumulated), w(r.book)]);
  if (lang === 'ko')
    return md(
      `${METHOD[d.method].ko}${d.method === 'straight' ? '은 상각할 금액을 연수만큼 똑같이 나누는 방법이에요' : d.method === 'syd' ? '은 남은 연수에 비례해 초반에 더 많이 상각하는 방법이에요' : `은 남은 장부금액에 일정한 비율(${pct(d.rate ?? 0)})을 곱하는 방법이에요`}. 상각할 금액은 취득원가 ${w(d.cost)}에서 잔존가치 ${jo(w(d.residual), '을')} 뺀 ${jo(w(d.cost - d.residual), '이에요')}${d.residualAssumed ? ' (잔존가치는 문제에 없어서 0으로 봤어요)' : ''}.\n`,
      `그래서 첫해 감가상각비는 ${jo(w(first), '이에요')}. 해마다 어떻게 줄어드는지 표로 보면 확인하기 쉬워요.\n`,
      table(['연도', '감가상각비', '누계액', '기말 장부금액'], rows, ['l', 'r', 'r', 'r']),
      '',
      `마지막 해 장부금액이 잔존가치 ${jo(w(d.residual), '과')} 같으니 계산이 맞아요. 매년 말에 (차) 감가상각비 / (대) 감가상각누계액으로 기록해요.\n`,
      `**정답: ${d.method === 'straight' ? '연간' : '첫해'} 감가상각비 ${w(first)}**\n`,
      '다른 상각 방법과도 비교해 볼까요?',
    );
  return md(
    `The ${METHOD[d.method].en} method ${d.method === 'straight' ? 'spreads the depreciable amount evenly over the asset’s life' : d.method === 'syd' ? 'front-loads the expense in proportion to the years remaining' : `applies a fixed rate (${pct(d.rate ?? 0)}) to the remaining book value each year`}. The depreciable amount is the cost of ${w(d.cost)} less a residual value of ${w(d.residual)}, so ${w(d.cost - d.residual)}${d.residualAssumed ? ' (the question gives no residual value, so I took it as 0)' : ''}.\n`,
    `That makes the first year’s charge ${w(first)}. Laying out every year is the easiest way to check it:\n`,
    table(['Year', 'Depreciation', 'Accumulated', 'Book value'], rows, ['l', 'r', 'r', 'r']),
    '',
    `The book value lands exactly on the residual value in the final year, which confirms the figures. Each year-end entry debits depreciation expense and credits accumulated depreciation.\n`,
    `**Answer: ${w(first)} ${d.method === 'straight' ? 'a year' : 'in the first year'}**\n`,
    'Would a comparison with another method help?',
  );
}

function vatAnswer(v: Vat, c: Ctx): string {
  const { lang } = c;
  const w = (n: number) => won(n, lang);
  const rows = lang === 'ko' ? [['공급가액', w(v.supply)], ['부가가치세', w(v.vat)], ['합계', w(v.total)]] : [['Net amount', w(v.supply)], ['VAT', w(v.vat)], ['Total', w(v.total)]];
  if (c.persona === 'atlas')
    return md(lang === 'ko' ? '## 회계 풀이: 부가가치세' : '## Accounting Solution: VAT', table(lang === 'ko' ? ['항목', '금액'] : ['Item', 'Amount'], rows, ['l', 'r']), '',
      lang === 'ko' ? `${v.included ? `공급가액 = 합계 ÷ 1.1` : `세액 = 공급가액 × 10%`}` : v.included ? 'Net = total ÷ 1.1' : 'VAT = net × 10%', '',
      lang === 'ko' ? `**정답:** 부가가치세 **${w(v.vat)}**` : `**Answer:** VAT of **${w(v.vat)}**`);
  return lang === 'ko'
    ? md(`${v.included ? `합계 ${w(v.total)}에는 세금이 이미 들어 있어서, 1.1로 나누면 공급가액 ${jo(w(v.supply), '이')} 나와요` : `공급가액 ${w(v.supply)}에 10%를 곱하면 돼요`}. 부가가치세는 ${jo(w(v.vat), '이에요')}.\n`, `매출이라면 (차) 현금 ${w(v.total)} / (대) 매출 ${w(v.supply)}, 부가세예수금 ${jo(w(v.vat), '으로')} 적어요.\n`, `**정답: ${w(v.vat)}**\n`, '매입 쪽 분개도 볼까요?')
    : md(`${v.included ? `The total of ${w(v.total)} already includes the tax, so dividing by 1.1 gives a net amount of ${w(v.supply)}` : `Multiply the net amount of ${w(v.supply)} by 10%`}; the VAT is ${w(v.vat)}.\n`, `On a sale you would debit cash ${w(v.total)} and credit sales ${w(v.supply)} and VAT payable ${w(v.vat)}.\n`, `**Answer: ${w(v.vat)}**\n`, 'Shall I show the purchase side too?');
}

/** No recognised calculation: say so, then give the structure that solves most entries. */
function unknown(c: Ctx): string {
  const nums = amountsIn(c.text).map((n) => won(n, c.lang));
  if (c.lang === 'ko')
    return c.persona === 'atlas'
      ? md('## 회계 풀이', `데모 모델이 계산 방법을 특정할 수 있는 유형(감가상각, 부가가치세)이 아니어서 숫자를 단정하지 않겠습니다.${nums.length ? ` 문제의 금액: ${nums.join(', ')}.` : ''}`, '', '### 푸는 순서', '1. 거래로 늘어난 것과 줄어든 것을 찾습니다.', '2. 자산·비용 증가는 차변, 부채·자본·수익 증가는 대변입니다.', '3. 차변 합계와 대변 합계가 같은지 확인합니다.')
      : md('솔직히 말하면 이 문제는 제가 확실히 계산할 수 있는 유형이 아니라서, 틀린 숫자를 드리느니 푸는 법을 보여 드릴게요.\n', '예를 들어 “비품 500,000원을 현금으로 샀다”면 비품(자산)이 늘고 현금(자산)이 줄어요. 그래서 (차) 비품 500,000원 / (대) 현금 500,000원이 되죠. 어떤 문제든 무엇이 늘고 무엇이 줄었는지부터 찾으면 분개가 보여요.\n', '감가상각이나 부가세처럼 조건이 분명한 문제라면 숫자까지 풀어 드릴 수 있어요. 조건을 더 적어 주실래요?');
  return c.persona === 'atlas'
    ? md('## Accounting Solution', `This is not a type the demo model can compute with confidence (it handles depreciation and VAT), so it won’t state a figure.${nums.length ? ` Amounts in the question: ${nums.join(', ')}.` : ''}`, '', '### How to solve it', '1. Find what increased and what decreased.', '2. Asset and expense increases are debits; liability, equity and revenue increases are credits.', '3. Check that debits equal credits.')
    : md('To be honest, this isn’t a kind of problem I can calculate reliably, so rather than hand you a wrong number, here is the method.\n', 'Say a business buys equipment for 500,000 in cash: equipment (an asset) goes up and cash (another asset) goes down, so you debit equipment 500,000 and credit cash 500,000. Start any entry by asking what went up and what went down, and the debits and credits follow.\n', 'For depreciation or VAT with clear figures I can work out the numbers too. Could you add the details?');
}

const write = (c: Ctx): string => {
  const d = depreciationOf(c.text);
  if (d) return c.persona === 'atlas' ? atlasDep(d, c.lang) : sonnetDep(d, c.lang);
  const v = vatOf(c.text);
  return v ? vatAnswer(v, c) : unknown(c);
};

export const accountingSolving: ToolWriters = { atlas: { en: write, ko: write }, sonnet: { en: write, ko: write } };
