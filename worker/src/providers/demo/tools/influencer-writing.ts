/**
 * Sponsored posts. The request is never pasted into the post: only the product's name is taken
 * from it. Atlas drafts a hook, body, call to action and hashtags, then says why it works; Sonnet
 * writes the post as a small scene from a day, then suggests a real detail to add.
 */
import type { Language } from '@duet/contracts';
import type { Ctx, ToolWriters } from '../context.ts';
import { be, cap, isAdjective, isPlural, withArticle } from '../english.ts';
import { jo } from '../korean.ts';
import { hashtag, md, numbered } from '../markdown.ts';

const DETERMINER = /^(?:a|an|the|our|my|this|these|that|your|their)\s/i;

/** The product named in a request (“Promote a new vegan bakery” → “a new vegan bakery”), or undefined when none stands out. */
export function productOf(text: string, lang: Language): string | undefined {
  let t = text.trim().split(/[\n.!?]/)[0]?.trim() ?? '';
  if (lang === 'ko' || /[가-힣]/.test(t)) {
    t = t
      .replace(/\s*(?:에\s*대한|에\s*대해|관련)?\s*(?:인스타(?:그램)?\s*)?(?:홍보|소개|광고|리뷰|추천|후기)?\s*(?:글|게시글|게시물|포스트|문구|캡션)?\s*(?:을|를)?\s*(?:좀\s*)?(?:써|작성해|만들어|홍보해|소개해|추천해|광고해)\s*(?:줘|주세요|줄래|주실래요|주시겠어요).*$/, '')
      .replace(/\s*(?:홍보|소개|광고|리뷰|추천|후기)\s*(?:글|게시글)?$/, '')
      .replace(/(?:을|를|에\s*대한)$/, '')
      .trim();
    return t && Array.from(t).length <= 20 && t.split(/\s+/).length <= 5 ? t : undefined;
  }
  t = t
    .replace(/^(?:please\s+|can you\s+|could you\s+)*/i, '')
    .replace(/^(?:write|create|make|draft|give me)\s+(?:me\s+)?(?:an?\s+)?(?:instagram\s+|insta\s+|social\s+)?(?:post|caption|ad|promo|review)s?\s+(?:about|for|on|promoting|introducing)\s+/i, '')
    .replace(/^(?:promote|promoting|advertise|introduce|review|recommend|a post about|a post for)\s+/i, '')
    .replace(/\s+(?:to|for|on)\s+(?:my|our)\s+(?:followers|instagram|feed|audience)$/i, '')
    .replace(/[,;:].*$/, '')
    .trim();
  if (!t || t.split(/\s+/).length > 6 || /^(?:write|create|make|help)\b/i.test(t)) return undefined;
  // A capitalised name (“Glowy Serum”) stays as written; a common noun gets its article.
  if (/^[A-Z]/.test(t) && !DETERMINER.test(t)) return t;
  const low = t.charAt(0).toLowerCase() + t.slice(1);
  return DETERMINER.test(low) || isPlural(low) ? low : withArticle(low);
}

const KO_LINES = [
  (k: string) => `제일 놀란 건 ${jo(k, '이었')}어요.`,
  (k: string) => `${k}? 까다로운 제 기준에도 기대 이상이었어요.`,
  (k: string) => `자꾸 생각나는 이유는 ${k} 때문이에요.`,
  (k: string) => `${jo(k, '이')} 중요한 분이라면 한번 볼 만해요.`,
  (k: string) => `첫날부터 ${k} 차이가 느껴졌어요.`,
  (k: string) => `${jo(k, '은')} 말로 설명하기보다 직접 느껴 보셔야 해요.`,
];
const EN_LINES = {
  adjective: [(k: string) => `It’s genuinely ${k}, and I’m picky about that.`, (k: string) => `${cap(k)} without trying too hard, which is rare.`, (k: string) => `If you want something ${k}, this is it.`, (k: string) => `I didn’t expect it to be this ${k}.`],
  noun: [(k: string) => `The ${k} ${be(k)} what surprised me most.`, (k: string) => `${cap(k)}: better than I expected, and I’m picky.`, (k: string) => `The ${k} alone ${be(k) === 'is' ? 'makes' : 'make'} it worth a visit.`, (k: string) => `I noticed the ${k} on day one.`],
};

function lines(c: Ctx, kws: string[]): string[] {
  if (c.lang === 'ko') {
    const pool = c.take(c.own(KO_LINES), 3);
    return kws.map((k, i) => pool[i % pool.length]?.(k) ?? k);
  }
  const adj = c.take(c.own(EN_LINES.adjective), 2);
  const noun = c.take(c.own(EN_LINES.noun), 2);
  return kws.map((k, i) => ((isAdjective(k) ? adj : noun)[i % 2] ?? ((x: string) => x))(k));
}

function tags(c: Ctx, kws: string[]): string {
  const base = c.own(c.lang === 'ko' ? ['#솔직후기', '#일상', '#추천템', '#데일리', '#오늘의발견', '#내돈내산아님'] : ['#honestreview', '#dailyroutine', '#musthave', '#newfind', '#lifestyle', '#weekendplans']);
  return [c.lang === 'ko' ? '#광고' : '#ad', ...kws.map(hashtag), ...base].slice(0, 7).join(' ');
}

function atlas(c: Ctx): string {
  const kws = c.inputs.keywords?.length ? c.inputs.keywords : [];
  const product = productOf(c.text, c.lang);
  const ko = c.lang === 'ko';
  const body = lines(c, kws);
  if (ko)
    return md(
      '## 인스타그램 게시글 초안',
      `**훅:** ${product ? `${jo(product, '을')} 2주 동안 직접 경험해 봤어요.` : '2주 동안 직접 써 보고 솔직하게 적어요.'}`,
      '',
      '**본문:**',
      ...body,
      '완벽하진 않지만(완벽한 건 없죠), 애쓰지 않아도 일상에 자연스럽게 들어왔어요.',
      '',
      '**행동 유도:** 써 보신 분 있나요? 댓글로 알려 주세요 👇',
      '',
      `**해시태그:** ${tags(c, kws)}`,
      '',
      '### 이렇게 쓴 이유',
      ...numbered(['판매 문구가 아니라 개인적인 경험으로 시작합니다.', `키워드(${kws.join(', ')})를 한 줄씩 맡겼습니다.`, '**#광고** 표시를 맨 앞에 두었습니다.']),
    );
  return md(
    '## Instagram Post Draft',
    `**Hook:** ${product ? `Two weeks with ${product}: here’s my honest take.` : 'Two weeks in, here’s my honest take.'}`,
    '',
    '**Body:**',
    ...body,
    'It’s not perfect (nothing is), but it slipped into my routine without any effort.',
    '',
    '**Call to action:** Tried it? Tell me in the comments 👇',
    '',
    `**Hashtags:** ${tags(c, kws)}`,
    '',
    '### Why it works',
    ...numbered(['Opens with a personal moment, not a sales pitch.', `Each keyword (${kws.join(', ')}) gets its own line.`, 'The **#ad** disclosure comes first.']),
  );
}

function sonnet(c: Ctx): string {
  const kws = c.inputs.keywords?.length ? c.inputs.keywords : [];
  const product = productOf(c.text, c.lang);
  const ko = c.lang === 'ko';
  const body = lines(c, kws);
  const quote = (ls: string[]) => ls.map((l) => (l ? `> ${l}` : '>'));
  if (ko)
    return md(
      '광고 문구보다는 하루의 한 장면처럼 읽히게 써 봤어요.',
      '',
      ...quote([
        '(광고)',
        `토요일 아침, 커피를 내리다가 문득 ${product ? `${jo(product, '이')} 떠올랐어요` : '지난 2주가 떠올랐어요'}.`,
        '',
        ...body,
        '',
        '솔직히 처음엔 반신반의했는데, 이제는 주말 루틴이 됐어요. 여러분은 요즘 어떤 게 일상을 바꿔 줬나요?',
        '',
        tags(c, kws),
      ]),
      '',
      '광고 표시는 맨 앞에 두었어요. 숨기지 않을 때 팔로워가 더 믿어 주거든요. 직접 겪은 작은 아쉬움이나 웃긴 순간이 있다면 한 줄 넣어 보세요. 그게 글을 진짜처럼 만들어요. 스토리용 짧은 버전도 써 드릴까요?',
    );
  return md(
    'I wrote it as a small scene from your week rather than an ad:',
    '',
    ...quote([
      '(Ad)',
      `Saturday morning, coffee in hand, and I realised ${product ? `${product} had quietly become part of my weekend` : 'the last two weeks had quietly changed my weekend'}.`,
      '',
      ...body,
      '',
      'I was sceptical at first. Now it’s a ritual. What’s one small thing that changed your routine lately?',
      '',
      tags(c, kws),
    ]),
    '',
    'The disclosure sits up front, which followers trust more than a hidden one. If you have a real detail, a small flaw or a funny moment, swap it in: that is what makes a post like this feel genuine. Want a shorter version for Stories too?',
  );
}

export const influencerWriting: ToolWriters = { atlas: { en: atlas, ko: atlas }, sonnet: { en: sonnet, ko: sonnet } };
