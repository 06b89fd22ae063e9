/**
 * Rap lyrics. Atlas writes the full verse, hook, verse with flow notes in a list; Sonnet writes its
 * own bars with a call-and-response hook and coaches the delivery in prose.
 */
import type { Ctx, ToolWriters } from '../context.ts';
import { joinAnd } from '../english.ts';
import { jo } from '../korean.ts';
import { md, numbered, stanza } from '../markdown.ts';
import { RAP, verses } from './verses.ts';

function atlas(c: Ctx): string {
  const v = verses(c, RAP);
  const ko = c.lang === 'ko';
  const style = c.inputs.genre?.trim();
  return md(
    `## ${v.title}`,
    ko ? `*스타일: ${style || '붐뱁'} · 키워드: ${v.keywords.join(', ')}*\n` : `*Style: ${style || 'boom bap'} · keywords: ${v.keywords.join(', ')}*\n`,
    '**[Verse 1]**',
    stanza(v.v1),
    '',
    '**[Hook]**',
    stanza(v.chorus),
    '',
    '**[Verse 2]**',
    stanza(v.v2),
    '',
    ko ? '### 플로우 노트' : '### Flow notes',
    ...numbered(
      ko
        ? ['**라임:** 두 마디씩 각운을 맞춘 AABB.', '**훅:** 제목을 네 번 반복해 한 번 듣고도 따라 부르게.', '**템포:** 약 90 BPM, 마지막 훅은 두 번.']
        : ['**Rhyme scheme:** AABB couplets, the rhyme on the last beat of each bar.', '**Hook:** the title four times, so it sticks after one listen.', '**Tempo:** about 90 BPM; double the final hook.'],
    ),
  );
}

function sonnet(c: Ctx): string {
  const v = verses(c, RAP);
  const ko = c.lang === 'ko';
  const style = c.inputs.genre?.trim();
  const kws = v.keywords.map((k) => `“${k}”`);
  return md(
    ko
      ? `${style ? `${style} 느낌으로, ` : ''}키워드 ${jo(kws.join(', '), '이')} 마디 끝 박자에 떨어지도록 썼어요. 훅은 관객이 괄호 부분을 받아 외치는 주고받기 형식이에요.\n`
      : `${style ? `Going for a ${style} feel, ` : ''}I placed ${joinAnd(kws)} on the downbeat at the end of a bar. The hook is call-and-response: the crowd shouts the part in brackets.\n`,
    '**[Verse 1]**',
    stanza(v.v1),
    '',
    '**[Hook]**',
    stanza(v.chorus),
    '',
    '**[Verse 2]**',
    stanza(v.v2),
    '',
    ko
      ? '랩은 가사만큼 전달이 중요해요. 소리 내어 뱉어 보고, 숨이 차는 줄은 서두르기보다 한 음절을 빼는 게 좋아요. 3절을 붙이거나 안쪽 라임을 더 촘촘하게 바꿔 볼까요?'
      : 'Delivery matters as much as the words, so say it out loud; if a bar feels crowded, drop a syllable rather than rushing it. Want a third verse, or tighter internal rhymes?',
  );
}

export const rapLyrics: ToolWriters = { atlas: { en: atlas, ko: atlas }, sonnet: { en: sonnet, ko: sonnet } };
