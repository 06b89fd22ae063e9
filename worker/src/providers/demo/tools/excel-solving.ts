/**
 * Spreadsheets: the task recognised from the question, solved two ways. Atlas gives the classic
 * formula with its arguments and an example table; Sonnet a different formula for the same job,
 * walked through on the example. Example results are computed from the example data, so they are
 * always right.
 */
import type { Language } from '@duet/contracts';
import type { Bi, Ctx, ToolWriters } from '../context.ts';
import { jo, josa } from '../korean.ts';
import { codeBlock, fmt, md, numbered, table } from '../markdown.ts';

type Row = [string, number];
interface Approach {
  formula: Bi;
  args: Bi<string[]>;
  tip: Bi;
}
interface Task {
  re: RegExp;
  head: Bi<[string, string]>;
  rows: Bi<Row[]>;
  /** The value the formulas return on the example, as shown. */
  result: (rows: Row[], lang: Language) => string;
  /** What Sonnet's formula returns, when it differs from Atlas's. */
  sonnetResult?: (rows: Row[], lang: Language) => string;
  atlas: Approach;
  sonnet: Approach;
}

const sum = (ns: number[]): number => ns.reduce((a, b) => a + b, 0);
const KEY: Bi = { en: 'Apple', ko: '사과' };

const TASKS: Task[] = [
  {
    re: /중복|duplicate|dupe|unique|고유/i,
    head: { en: ['Name', 'Orders'], ko: ['이름', '주문'] },
    rows: { en: [['Kim', 3], ['Lee', 5], ['Kim', 2], ['Park', 4]], ko: [['김민지', 3], ['이서준', 5], ['김민지', 2], ['박지호', 4]] },
    result: (rows, lang) => {
      const dup = rows.map(([n], i) => (rows.filter(([m]) => m === n).length > 1 ? i + 2 : 0)).filter(Boolean);
      return lang === 'ko' ? `${dup.join('행과 ')}행이 TRUE` : `rows ${dup.join(' and ')} are TRUE`;
    },
    sonnetResult: (rows, lang) => {
      const names = [...new Set(rows.map(([n]) => n))];
      return lang === 'ko' ? `${names.join(', ')}의 ${names.length}명` : `${names.join(', ')}: ${names.length} names from ${rows.length} rows`;
    },
    atlas: {
      formula: { en: '=COUNTIF($A$2:$A$5, A2)>1', ko: '=COUNTIF($A$2:$A$5, A2)>1' },
      args: { en: ['`$A$2:$A$5`: the whole list, locked with `$` for filling down', '`A2`: the value in this row', '`>1`: TRUE when it appears more than once'], ko: ['`$A$2:$A$5`: 전체 목록. 아래로 채워도 움직이지 않게 `$`로 고정', '`A2`: 현재 행의 값', '`>1`: 두 번 이상 나오면 TRUE'] },
      tip: { en: 'Trailing spaces make “Kim” and “Kim ” different; clean them with `TRIM` first.', ko: '끝 공백이 있으면 다른 값으로 봅니다. 먼저 `TRIM`으로 정리하세요.' },
    },
    sonnet: {
      formula: { en: '=UNIQUE(A2:A5)', ko: '=UNIQUE(A2:A5)' },
      args: { en: ['`UNIQUE` spills a list with each name once', 'compare its length with `ROWS(A2:A5)` to see how many repeats there were'], ko: ['`UNIQUE`는 이름을 한 번씩만 담은 목록을 펼쳐 줘요', '`ROWS(A2:A5)`와 개수를 비교하면 중복이 몇 개였는지 알 수 있어요'] },
      tip: { en: 'UNIQUE needs Excel 365/2021 or Google Sheets; in older Excel, use Data › Remove Duplicates on a copy.', ko: 'UNIQUE는 엑셀 365/2021이나 구글 시트에서 돼요. 구버전이라면 복사본에서 데이터 › 중복된 항목 제거를 쓰세요.' },
    },
  },
  {
    re: /찾|조회|look ?up|find|match|vlookup|가져/i,
    head: { en: ['Code', 'Price'], ko: ['코드', '가격'] },
    rows: { en: [['A-101', 12000], ['B-205', 8500], ['C-310', 15000]], ko: [['A-101', 12000], ['B-205', 8500], ['C-310', 15000]] },
    result: (rows) => fmt(rows.find(([k]) => k === 'B-205')?.[1] ?? 0),
    atlas: {
      formula: { en: '=XLOOKUP("B-205", A2:A4, B2:B4, "Not found")', ko: '=XLOOKUP("B-205", A2:A4, B2:B4, "없음")' },
      args: { en: ['`"B-205"`: the value to find (or a cell such as `D2`)', '`A2:A4`: where to look', '`B2:B4`: what to return from the same row', 'last argument: shown instead of `#N/A`'], ko: ['`"B-205"`: 찾을 값 (`D2` 같은 셀도 가능)', '`A2:A4`: 찾을 범위', '`B2:B4`: 같은 행에서 돌려줄 값', '마지막 인수: `#N/A` 대신 보여 줄 값'] },
      tip: { en: 'XLOOKUP needs Excel 2021/365 or Google Sheets.', ko: 'XLOOKUP은 엑셀 2021/365와 구글 시트에서 됩니다.' },
    },
    sonnet: {
      formula: { en: '=INDEX(B2:B4, MATCH("B-205", A2:A4, 0))', ko: '=INDEX(B2:B4, MATCH("B-205", A2:A4, 0))' },
      args: { en: ['`MATCH(..., 0)` finds the row number of an exact match', '`INDEX` returns the price in that row'], ko: ['`MATCH(..., 0)`가 정확히 일치하는 행 번호를 찾고', '`INDEX`가 그 행의 가격을 돌려줘요'] },
      tip: { en: 'The 0 in MATCH matters: leave it out and Excel looks for an approximate match in sorted data.', ko: 'MATCH의 0이 중요해요. 빼면 정렬된 데이터에서 근삿값을 찾아 버려요.' },
    },
  },
  {
    re: /순위|등수|랭킹|rank|top|largest|highest|가장 큰/i,
    head: { en: ['Name', 'Sales'], ko: ['이름', '매출'] },
    rows: { en: [['Kim', 420], ['Lee', 515], ['Park', 380], ['Choi', 470]], ko: [['김민지', 420], ['이서준', 515], ['박지호', 380], ['최유나', 470]] },
    result: (rows, lang) => {
      const [top] = [...rows].sort((a, b) => b[1] - a[1]);
      const name = top?.[0] ?? '';
      return lang === 'ko' ? `${name}(${fmt(top?.[1] ?? 0)})${josa(name, '이')} 1위` : `${name} (${fmt(top?.[1] ?? 0)}) in first place`;
    },
    atlas: {
      formula: { en: '=RANK.EQ(B2, $B$2:$B$5)', ko: '=RANK.EQ(B2, $B$2:$B$5)' },
      args: { en: ['`B2`: the value to rank', '`$B$2:$B$5`: all values, locked for filling down', 'add `, 1` at the end to rank smallest first'], ko: ['`B2`: 순위를 매길 값', '`$B$2:$B$5`: 전체 값. 아래로 채워도 고정', '끝에 `, 1`을 붙이면 작은 값이 1위'] },
      tip: { en: 'Ties share a rank and the next rank is skipped (1, 2, 2, 4).', ko: '동점은 같은 순위를 받고 다음 순위는 건너뜁니다 (1, 2, 2, 4).' },
    },
    sonnet: {
      formula: { en: '=SORT(A2:B5, 2, -1)', ko: '=SORT(A2:B5, 2, -1)' },
      args: { en: ['`2`: sort by the second column', '`-1`: largest first, so the top row is first place'], ko: ['`2`: 두 번째 열 기준', '`-1`: 큰 값부터, 그래서 맨 윗줄이 1위예요'] },
      tip: { en: 'SORT leaves the original data untouched, so you can keep a live leaderboard next to it.', ko: 'SORT는 원본을 건드리지 않아서 옆에 실시간 순위표를 둘 수 있어요.' },
    },
  },
  {
    re: /평균|average|mean/i,
    head: { en: ['Item', 'Amount'], ko: ['품목', '금액'] },
    rows: { en: [['Apple', 1200], ['Pear', 800], ['Apple', 500], ['Grape', 950]], ko: [['사과', 1200], ['배', 800], ['사과', 500], ['포도', 950]] },
    result: (rows, lang) => fmt(sum(rows.filter(([k]) => k === KEY[lang]).map(([, v]) => v)) / rows.filter(([k]) => k === KEY[lang]).length),
    atlas: {
      formula: { en: '=AVERAGEIF(A2:A5, "Apple", B2:B5)', ko: '=AVERAGEIF(A2:A5, "사과", B2:B5)' },
      args: { en: ['`A2:A5`: the range tested', '`"Apple"`: the condition', '`B2:B5`: the numbers averaged'], ko: ['`A2:A5`: 조건을 볼 범위', '`"사과"`: 조건', '`B2:B5`: 평균 낼 숫자'] },
      tip: { en: 'Blank cells are ignored but zeros count, which can pull the average down.', ko: '빈 셀은 빠지지만 0은 포함되어 평균이 낮아질 수 있습니다.' },
    },
    sonnet: {
      formula: { en: '=AVERAGE(FILTER(B2:B5, A2:A5="Apple"))', ko: '=AVERAGE(FILTER(B2:B5, A2:A5="사과"))' },
      args: { en: ['`FILTER` keeps only the matching amounts', '`AVERAGE` averages what is left'], ko: ['`FILTER`가 조건에 맞는 금액만 남기고', '`AVERAGE`가 남은 값의 평균을 내요'] },
      tip: { en: 'If nothing matches, FILTER returns #CALC!; wrap it in IFERROR to show a dash instead.', ko: '맞는 값이 없으면 FILTER가 #CALC! 오류를 내니 IFERROR로 감싸 두면 좋아요.' },
    },
  },
  {
    re: /합계|합산|더하|sum|total|add up/i,
    head: { en: ['Item', 'Amount'], ko: ['품목', '금액'] },
    rows: { en: [['Apple', 1200], ['Pear', 800], ['Apple', 500], ['Grape', 950]], ko: [['사과', 1200], ['배', 800], ['사과', 500], ['포도', 950]] },
    result: (rows, lang) => fmt(sum(rows.filter(([k]) => k === KEY[lang]).map(([, v]) => v))),
    atlas: {
      formula: { en: '=SUMIF(A2:A5, "Apple", B2:B5)', ko: '=SUMIF(A2:A5, "사과", B2:B5)' },
      args: { en: ['`A2:A5`: the range checked against the condition', '`"Apple"`: the condition (a cell such as `D2` works too)', '`B2:B5`: the numbers to add'], ko: ['`A2:A5`: 조건을 확인할 범위', '`"사과"`: 조건 (`D2` 같은 셀도 가능)', '`B2:B5`: 더할 숫자'] },
      tip: { en: 'Numbers stored as text are skipped silently; look for the green triangle and convert them.', ko: '텍스트로 저장된 숫자는 조용히 빠집니다. 초록 삼각형을 확인해 숫자로 바꾸세요.' },
    },
    sonnet: {
      formula: { en: '=SUMPRODUCT((A2:A5="Apple")*B2:B5)', ko: '=SUMPRODUCT((A2:A5="사과")*B2:B5)' },
      args: { en: ['`(A2:A5="Apple")` becomes 1 for matching rows and 0 for the rest', 'multiplying by `B2:B5` keeps only the matching amounts, and `SUMPRODUCT` adds them'], ko: ['`(A2:A5="사과")`는 맞는 행이면 1, 아니면 0이 되고', '`B2:B5`를 곱하면 맞는 금액만 남아서 `SUMPRODUCT`가 더해요'] },
      tip: { en: 'The nice thing is that adding a second condition is just another factor: `*(C2:C5="Seoul")`.', ko: '조건을 하나 더 붙이려면 `*(C2:C5="서울")`처럼 곱하기만 하면 돼서 편해요.' },
    },
  },
  {
    re: /개수|몇 ?개|몇 ?명|세는|세기|카운트|count|how many/i,
    head: { en: ['Name', 'Score'], ko: ['이름', '점수'] },
    rows: { en: [['Kim', 92], ['Lee', 75], ['Park', 81], ['Choi', 68]], ko: [['김민지', 92], ['이서준', 75], ['박지호', 81], ['최유나', 68]] },
    result: (rows) => String(rows.filter(([, v]) => v >= 80).length),
    atlas: {
      formula: { en: '=COUNTIF(B2:B5, ">=80")', ko: '=COUNTIF(B2:B5, ">=80")' },
      args: { en: ['`B2:B5`: the cells to check', '`">=80"`: the condition in quotes; with a cell, write `">="&D1`'], ko: ['`B2:B5`: 확인할 셀', '`">=80"`: 따옴표 안의 조건. 셀을 쓰려면 `">="&D1`'] },
      tip: { en: 'For several conditions at once, use `COUNTIFS`.', ko: '조건이 여러 개면 `COUNTIFS`를 쓰세요.' },
    },
    sonnet: {
      formula: { en: '=SUMPRODUCT(--(B2:B5>=80))', ko: '=SUMPRODUCT(--(B2:B5>=80))' },
      args: { en: ['`B2:B5>=80` gives TRUE or FALSE for each score', '`--` turns them into 1s and 0s, and `SUMPRODUCT` adds them up'], ko: ['`B2:B5>=80`이 점수마다 TRUE나 FALSE를 내고', '`--`가 이를 1과 0으로 바꾸면 `SUMPRODUCT`가 더해요'] },
      tip: { en: 'It looks odd at first, but it accepts conditions COUNTIF can’t, such as `LEN(A2:A5)>3`.', ko: '처음엔 낯설지만 `LEN(A2:A5)>3`처럼 COUNTIF로는 못 거는 조건도 받아 줘요.' },
    },
  },
];

/** Used when the task is not recognised: the common pass/fail pattern, with an honest note. */
const FALLBACK: Task = {
  re: /$^/,
  head: { en: ['Name', 'Score'], ko: ['이름', '점수'] },
  rows: { en: [['Kim', 72], ['Lee', 55], ['Park', 90]], ko: [['김민지', 72], ['이서준', 55], ['박지호', 90]] },
  result: (rows, lang) => rows.map(([n, v]) => `${n}: ${v >= 60 ? (lang === 'ko' ? '합격' : 'Pass') : lang === 'ko' ? '불합격' : 'Fail'}`).join(', '),
  atlas: {
    formula: { en: '=IF(B2>=60, "Pass", "Fail")', ko: '=IF(B2>=60, "합격", "불합격")' },
    args: { en: ['`B2>=60`: the test', '`"Pass"`: shown when it is TRUE', '`"Fail"`: shown otherwise'], ko: ['`B2>=60`: 검사할 조건', '`"합격"`: 참일 때 값', '`"불합격"`: 그 밖의 경우'] },
    tip: { en: 'For more than two outcomes, use `IFS` instead of nested IFs.', ko: '결과가 셋 이상이면 IF를 겹치지 말고 `IFS`를 쓰세요.' },
  },
  sonnet: {
    formula: { en: '=IFS(B2>=60, "Pass", TRUE, "Fail")', ko: '=IFS(B2>=60, "합격", TRUE, "불합격")' },
    args: { en: ['`IFS` checks its conditions in order and stops at the first TRUE', 'the final `TRUE` catches everything else'], ko: ['`IFS`는 조건을 차례로 보고 처음 참인 곳에서 멈춰요', '마지막 `TRUE`가 나머지를 모두 받아요'] },
    tip: { en: 'Adding a grade later is one more pair, e.g. `B2>=90, "Merit"` placed first.', ko: '나중에 등급을 늘리려면 `B2>=90, "우수"` 같은 쌍을 앞에 하나 더 넣으면 돼요.' },
  },
};

const grid = (t: Task, lang: Language): string =>
  table(['', 'A', 'B'], [[1, ...t.head[lang]], ...t.rows[lang].map(([a, b], i) => [i + 2, a, fmt(b)])]);

function atlas(c: Ctx, t: Task, known: boolean): string {
  const { lang } = c;
  const a = t.atlas;
  const ko = lang === 'ko';
  return md(
    ko ? '## 스프레드시트 풀이' : '## Spreadsheet Solution',
    known ? false : ko ? '질문에서 어떤 계산인지 확실히 알 수 없어, 가장 흔한 조건 판정 수식으로 답합니다.\n' : 'The task isn’t clear from the question, so here is the most common pattern: a condition test.\n',
    codeBlock('excel', a.formula[lang]),
    '',
    ko ? '### 인수' : '### Arguments',
    ...numbered(a.args[lang]),
    '',
    ko ? '### 예시' : '### Example',
    grid(t, lang),
    '',
    `**${ko ? '결과' : 'Result'}:** ${t.result(t.rows[lang], lang)}`,
    '',
    `**${ko ? '주의' : 'Watch out'}:** ${a.tip[lang]}`,
  );
}

function sonnet(c: Ctx, t: Task, known: boolean): string {
  const { lang } = c;
  const s = t.sonnet;
  const result = (t.sonnetResult ?? t.result)(t.rows[lang], lang);
  if (lang === 'ko')
    return md(
      known ? '저라면 이 수식을 쓸 것 같아요.\n' : '어떤 계산을 원하시는지 확실하지 않아서, 가장 자주 쓰는 조건 판정으로 예를 들어 볼게요.\n',
      codeBlock('excel', s.formula.ko),
      '',
      `원리는 간단해요. ${s.args.ko.join(', ')}.\n`,
      '이런 작은 표에 넣어 보면:',
      '',
      grid(t, 'ko'),
      '',
      `결과는 ${jo(result, '이에요')}. ${s.tip.ko}\n`,
      '실제 시트의 열 구성을 알려 주시면 범위를 맞춰 드릴까요?',
    );
  return md(
    known ? 'Here’s the formula I’d reach for:\n' : 'I’m not sure which calculation you need, so let me show the most common one, a condition test, as an example.\n',
    codeBlock('excel', s.formula.en),
    '',
    `The idea: ${s.args.en.join(', and ')}.\n`,
    'On a small table like this one:',
    '',
    grid(t, 'en'),
    '',
    `the result is ${result}. ${s.tip.en}\n`,
    'Want me to adapt the ranges to your actual columns?',
  );
}

const taskOf = (text: string): Task | undefined => TASKS.find((t) => t.re.test(text));

export const excelSolving: ToolWriters = {
  atlas: { en: (c) => atlas(c, taskOf(c.text) ?? FALLBACK, !!taskOf(c.text)), ko: (c) => atlas(c, taskOf(c.text) ?? FALLBACK, !!taskOf(c.text)) },
  sonnet: { en: (c) => sonnet(c, taskOf(c.text) ?? FALLBACK, !!taskOf(c.text)), ko: (c) => sonnet(c, taskOf(c.text) ?? FALLBACK, !!taskOf(c.text)) },
};
