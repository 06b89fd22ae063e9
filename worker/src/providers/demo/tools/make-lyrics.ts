/**
 * Poems and lyrics. Atlas writes a song form (verse, chorus, verse) with labelled parts and a
 * checklist; Sonnet writes free verse with a quiet refrain and explains the images it chose.
 */
import type { Ctx, ToolWriters } from '../context.ts';
import { joinAnd } from '../english.ts';
import { md, stanza, table } from '../markdown.ts';
import { LYRIC, verses } from './verses.ts';

const LANG_NAME = { en: { en: 'English', ko: '영어' }, ko: { en: 'Korean', ko: '한국어' } } as const;

function atlas(c: Ctx): string {
  const v = verses(c, LYRIC);
  const ko = c.lang === 'ko';
  const genre = c.inputs.genre?.trim();
  return md(
    `## ${v.title}`,
    ko ? `*장르: ${genre || '자유시'} · 쓰는 언어: ${LANG_NAME[v.lang].ko}*\n` : `*${genre || 'Free verse'} · written in ${LANG_NAME[v.lang].en}*\n`,
    ko ? '### 1절' : '### Verse 1',
    stanza(v.v1),
    '',
    ko ? '### 후렴' : '### Chorus',
    stanza(v.chorus),
    '',
    ko ? '### 2절' : '### Verse 2',
    stanza(v.v2),
    '',
    ko
      ? table(['점검 항목', '결과'], [['제목', '첫 줄 ✅'], ['키워드', `${v.keywords.join(', ')} ✅`], ['구성', '1절 · 후렴 · 2절, 두 줄씩 운율']])
      : table(['Check', 'Result'], [['Title', 'first line ✅'], ['Keywords', `${v.keywords.join(', ')} ✅`], ['Structure', 'verse · chorus · verse, rhymed couplets']]),
  );
}

function sonnet(c: Ctx): string {
  const v = verses(c, LYRIC);
  const ko = c.lang === 'ko';
  const genre = c.inputs.genre?.trim();
  const kws = v.keywords.map((k) => `“${k}”`);
  return md(
    ko
      ? `키워드 ${kws.join(', ')}마다 장면 하나씩을 맡겨 보았어요. 노래의 틀보다는 한 편의 시처럼 읽히게 썼어요.\n`
      : `I gave each keyword (${joinAnd(kws)}) a scene of its own and let the piece breathe as free verse rather than a song form.\n`,
    `**${v.title}**\n`,
    stanza(v.v1),
    '',
    stanza(v.chorus),
    '',
    stanza(v.v2),
    '',
    ko
      ? `${genre ? `${genre}의 결을 살리되 ` : ''}후렴 대신 짧은 되뇌임 두 줄로 숨을 고르게 했어요. 소리 내어 읽으면 행 끝에서 잠깐씩 쉬게 될 거예요. 더 밝게, 혹은 더 쓸쓸하게 바꿔 볼까요?`
      : `${genre ? `I kept the ${genre} mood, but ` : ''}instead of a chorus, two quiet lines return in the middle like a held breath. Read it aloud and the line ends give you the pauses. Would you like it brighter, or more bittersweet?`,
  );
}

export const makeLyrics: ToolWriters = { atlas: { en: atlas, ko: atlas }, sonnet: { en: sonnet, ko: sonnet } };
