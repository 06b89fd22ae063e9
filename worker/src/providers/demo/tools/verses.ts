/**
 * Couplet banks for poems and raps. Each couplet takes one keyword: in English as a noun phrase
 * with its article (“the lighthouse”, “something crunchy” for an adjective), in Korean with the
 * particle its last sound needs. Atlas and Sonnet draw from different halves of each bank.
 */
import type { Language } from '@duet/contracts';
import type { Ctx } from '../context.ts';
import { cap, isAdjective } from '../english.ts';
import { jo } from '../korean.ts';

/** A couplet around one keyword: `np` is the English noun phrase, `k` the bare keyword. */
type Couplet = (np: string, k: string) => [string, string];
export interface Bank {
  lines: Couplet[];
  chorus: { atlas: (t: string) => string[]; sonnet: (t: string) => string[] };
}

const nounPhrase = (k: string): string => (isAdjective(k) ? `something ${k}` : `the ${k}`);

export const LYRIC: Record<Language, Bank> = {
  en: {
    lines: [
      (n) => [`I found ${n} where the evening light was thin,`, 'and kept the moment like a secret tucked within.'],
      (n) => [`${cap(n)} kept turning in the pocket of the rain,`, 'a small and stubborn compass pointing home again.'],
      (n) => [`We wrote ${n} in chalk along the wall`, 'and watched the weather teach the words to fall.'],
      (n) => [`I hear ${n} humming underneath the floor,`, 'a song that knows the way back to the door.'],
      (n) => [`You said ${n} would fade by morning’s start,`, 'but the morning came and found it in my heart.'],
      (n) => [`Tonight I let ${n} learn how to fly,`, 'stitched to the blue edge of an open sky.'],
      (n) => [`I traded all I had for ${n} and an hour,`, 'and the hour opened slowly like a flower.'],
      (n) => [`Between the tides I left ${n} on the sand,`, 'and the sea wrote back in a language I could understand.'],
      (n) => [`The streetlamps leaned to look at ${n} tonight,`, 'as if the dark had something it wanted to get right.'],
      (n) => [`I folded ${n} inside a paper boat`, 'and let the river carry what I never wrote.'],
    ],
    chorus: {
      atlas: (t) => [`${t}, ${t},`, 'say it soft enough to stay;', 'every word I couldn’t say', 'finds its way to you today.'],
      sonnet: (t) => [`*And still, ${t},*`, '*the quiet keeps your name.*'],
    },
  },
  ko: {
    lines: [
      (_, k) => [`${jo(k, '이')} 머물던 골목 끝에서`, '나는 오래된 노래를 다시 불러'],
      (_, k) => [`주머니 속 ${k} 하나 꺼내 보면`, '잊은 줄 알았던 계절이 번져'],
      (_, k) => [`비에 젖은 ${jo(k, '을')} 손에 쥐고`, '천천히 집으로 가는 길을 걸어'],
      (_, k) => [`창가에 내려앉은 ${k}처럼`, '말없이 너를 기다리는 밤'],
      (_, k) => [`${jo(k, '은')} 아직 거기 있을까`, '우리가 웃던 그 자리 그대로'],
      (_, k) => [`하늘 끝에 ${jo(k, '을')} 띄워 보내면`, '대답 대신 바람이 돌아와'],
      (_, k) => [`${k} 사이로 흘러간 시간`, '그 모든 순간이 빛이 되었어'],
      (_, k) => [`물결이 ${jo(k, '을')} 모래 위에 두고 가면`, '바다는 내가 아는 말로 답장을 써'],
      (_, k) => [`가로등도 고개 숙여 ${jo(k, '을')} 보던 밤`, '어둠조차 무언가 바로잡고 싶어 했지'],
      (_, k) => [`종이배에 ${jo(k, '을')} 접어 실어 보내고`, '끝내 쓰지 못한 말은 강물에 맡겨'],
    ],
    chorus: {
      atlas: (t) => [`${t}, ${t}`, '작게 불러도 닿을 수 있게', '끝내 하지 못한 말들이', '오늘은 너에게 닿기를'],
      sonnet: (t) => [`*그래도, ${t}*`, '*고요는 네 이름을 기억해*'],
    },
  },
};

export const RAP: Record<Language, Bank> = {
  en: {
    lines: [
      (n) => [`Started out with ${n}, now I’m running up the score,`, 'every door they closed just taught me how to knock some more.'],
      (n) => [`${cap(n)} on my mind and a blueprint in my head,`, 'they were sleeping on my name, so I’m writing it instead.'],
      (n) => [`They talk about ${n} like they’ve been here from the start,`, 'but the map to where I’m going was drawn inside my heart.'],
      (n) => [`Late nights with ${n}, city humming through the walls,`, 'I don’t need a spotlight when the echo always calls.'],
      (n) => [`Flip ${n} over, see the sweat along the back,`, 'one step at a time and I never lost the track.'],
      (n) => [`Every bar is for ${n}, every verse is paying rent,`, 'counting every lesson like it’s money that I spent.'],
      (n) => [`Wrote ${n} on a napkin when the rent was overdue,`, 'now the napkin’s in a frame and the dream is coming through.'],
      (n) => [`Kept ${n} in my corner when the corner had no light,`, 'turned the static into rhythm and the rhythm into fight.'],
    ],
    chorus: {
      atlas: (t) => [`${t}! Say it louder for the back,`, `${t}! We don’t fold and we don’t crack,`, 'from the bottom to the top, every beat a brand-new track,', `${t}, and we’re never looking back.`],
      sonnet: (t) => [`(${t}) yeah, we built it from the ground,`, `(${t}) every setback made a sound.`],
    },
  },
  ko: {
    lines: [
      (_, k) => [`${jo(k, '으로')} 시작했지 바닥부터 한 칸씩`, '닫힌 문 앞에서도 두드렸어 한 번씩'],
      (_, k) => [`주머니엔 ${k}, 머릿속엔 큰 그림`, '다들 잠든 밤에도 안 멈추는 내 리듬'],
      (_, k) => [`다들 ${k} 얘기해 처음부터 있던 것처럼`, '난 내 길을 그려 왔지 낮에도 밤처럼'],
      (_, k) => [`늦은 밤 ${k}, 도시가 벽 너머로 울려`, '조명 없이도 내 목소린 더 멀리 울려'],
      (_, k) => [`${jo(k, '을')} 뒤집어 보면 보여 땀의 흔적`, '한 걸음씩 올라왔어 이건 내 기적'],
      (_, k) => [`매 마디가 ${k}, 매 벌스가 월세`, '배운 건 다 내 거야 이게 바로 내 세계'],
      (_, k) => [`월세 밀린 날 냅킨에 적은 ${k}`, '이젠 액자 속에 걸려 꿈이 현실로 바뀐 것'],
      (_, k) => [`불 꺼진 구석에서도 ${jo(k, '은')} 내 편`, '잡음을 리듬으로, 리듬을 싸움으로 바꾼 내 펜'],
    ],
    chorus: {
      atlas: (t) => [`${t}! 더 크게 외쳐 뒤까지`, `${t}! 우린 안 꺾여 끝까지`, '바닥에서 꼭대기까지 매 비트가 새 시작', `${t}, 뒤는 안 봐 이제부터 진짜 시작`],
      sonnet: (t) => [`(${t}) 맨땅에서 쌓아 올린 탑`, `(${t}) 넘어질 때마다 더 커진 답`],
    },
  },
};

export interface Verses {
  lang: Language;
  title: string;
  keywords: string[];
  v1: string[];
  chorus: string[];
  v2: string[];
}

/** Two verses that use every keyword at least once, plus this persona's chorus on the title. */
export function verses(c: Ctx, bank: Record<Language, Bank>): Verses {
  const lang = c.inputs.language ?? c.lang;
  const kws = c.inputs.keywords?.length ? c.inputs.keywords : [lang === 'ko' ? '오늘' : 'today'];
  const title = c.inputs.poemTitle?.trim() || (lang === 'ko' ? '무제' : 'Untitled');
  const own = c.take(c.own(bank[lang].lines), bank[lang].lines.length);
  const count = Math.max(4, kws.length);
  const couplets = Array.from({ length: count }, (_, i) => {
    const k = kws[i % kws.length] ?? '';
    const line = own[i % own.length] ?? bank[lang].lines[0];
    return line ? line(nounPhrase(k), k) : [k, k];
  });
  const half = Math.ceil(couplets.length / 2);
  return { lang, title, keywords: kws, v1: couplets.slice(0, half).flat(), chorus: bank[lang].chorus[c.persona](title), v2: couplets.slice(half).flat() };
}
