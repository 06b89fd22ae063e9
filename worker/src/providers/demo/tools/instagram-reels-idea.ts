/**
 * Reel ideas. Each model pitches three concepts from its own half of the pool: Atlas as a shot
 * list per idea (hook, shots, caption, sound), Sonnet as short scenes told in prose, then which
 * one to film first and why.
 */
import type { Language } from '@duet/contracts';
import type { Ctx, ToolWriters } from '../context.ts';
import { cap, titleCase } from '../english.ts';
import { jo } from '../korean.ts';
import { hashtag, md } from '../markdown.ts';

interface Reel {
  title: string;
  hook: string;
  shots: string[];
  caption: string;
  music: string;
}

const REELS: Record<Language, ((k: string) => Reel)[]> = {
  en: [
    (k) => ({ title: `24 Hours of ${titleCase(k)}`, hook: `on-screen text: “24 hours, one theme: ${k}. Hour 3 surprised me.”`, shots: ['the alarm goes off, quick cut to the setup', `a close-up on the ${k} detail nobody notices`, 'the messy middle, sped up 4×', 'a final reveal with a grin to camera'], caption: 'Would you last 24 hours? 👀', music: 'upbeat lo-fi' }),
    (k) => ({ title: `${titleCase(k)}: Expectation vs Reality`, hook: 'a split screen, the polished version on the left and the real one on the right', shots: ['the same action starts on both sides', 'the reality side hits a small disaster', 'twist: the real version ends up better'], caption: 'Be honest, which side are you? 😂', music: 'a trending comedy sound' }),
    (k) => ({ title: `3 ${titleCase(k)} Mistakes Everyone Makes`, hook: `“Stop scrolling if you’ve made one of these ${k} mistakes.”`, shots: ['mistake 1 acted out with a big red ✗', 'mistake 2 with a ten-second fix', 'mistake 3 as a before and after', 'a point at the caption: “save this”'], caption: 'Which one were you guilty of?', music: 'a punchy beat that lands on every cut' }),
    (k) => ({ title: `POV: ${titleCase(k)}, Day One`, hook: 'a shaky handheld shot, wide eyes, text: “nobody warned me”', shots: ['excited prep in quick cuts', 'the first attempt goes slightly wrong', 'the second attempt nails it, with a relieved look to camera'], caption: 'Everyone starts somewhere 🙌', music: 'a dramatic build-up, then the drop' }),
    (k) => ({ title: `The 10-Second ${titleCase(k)} Trick`, hook: 'the finished result first, then a rewind', shots: ['the finished result', 'a rewind effect back to the start', `a close-up of the one key ${k} step`, 'a snap back to the result'], caption: 'Save this for later 📌', music: 'a clean minimal beat' }),
    (k) => ({ title: `${titleCase(k)}, Rated by a Stranger`, hook: 'you hand your phone to a passer-by: “Rate this, one to ten”', shots: ['the ask, filmed from behind', `their first reaction to the ${k}`, 'the score reveal with a freeze-frame'], caption: 'Do you agree with the score? 🤔', music: 'a game-show jingle' }),
    (k) => ({ title: `${titleCase(k)}: One Take, No Cuts`, hook: 'a timer appears on screen: “one take, no cuts”', shots: ['the timer starts', 'a near-miss halfway through', 'the finish, with the timer frozen'], caption: 'No cuts. Did I make it? ⏱️', music: 'a ticking clock sound with a beat underneath' }),
    (k) => ({ title: `${titleCase(k)} at 6 a.m.`, hook: 'a dark, quiet frame and a whispered “shh”', shots: ['the first light through the window', `the ${k} in soft morning light`, 'the city waking up outside'], caption: 'The calmest 15 seconds of your feed ☁️', music: 'soft piano' }),
  ],
  ko: [
    (k) => ({ title: `24시간 ${k} 챌린지`, hook: `화면 자막 “${jo(k, '으로')} 꽉 채운 하루, 3시간째에 반전이…”`, shots: ['알람이 울리고 바로 준비 장면으로 컷', `아무도 눈여겨보지 않는 ${k} 디테일 클로즈업`, '엉망인 중간 과정을 4배속으로', '카메라를 보며 씩 웃는 마지막 공개'], caption: '여러분은 24시간 버틸 수 있나요? 👀', music: '경쾌한 로파이' }),
    (k) => ({ title: `${k} 기대 vs 현실`, hook: '화면 분할: 왼쪽은 완벽한 버전, 오른쪽은 현실 버전', shots: ['같은 동작을 양쪽에서 동시에 시작', '현실 쪽에서 작은 사고 발생', '반전: 현실 버전이 오히려 더 좋게 끝남'], caption: '솔직히 여러분은 어느 쪽인가요? 😂', music: '유행하는 코믹 사운드' }),
    (k) => ({ title: `다들 하는 ${k} 실수 3가지`, hook: `“${k} 앞에서 이런 실수 해 봤다면 스크롤 멈추세요”`, shots: ['실수 1을 재연하고 빨간 ✗ 표시', '실수 2와 10초 해결법', '실수 3의 전후 비교', '자막을 가리키며 “저장해 두세요”'], caption: '여러분은 몇 번이었나요?', music: '컷마다 비트가 꽂히는 음악' }),
    (k) => ({ title: `POV: ${jo(k, '을')} 처음 만난 날`, hook: '흔들리는 핸드헬드, 동그래진 눈, 자막 “아무도 말 안 해 줬어”', shots: ['설레는 준비 과정을 빠른 컷으로', '첫 시도에서 생긴 작은 실수', '두 번째에 성공하고 카메라 보며 안도'], caption: '처음엔 다 그렇잖아요 🙌', music: '점점 고조되다 터지는 음악' }),
    (k) => ({ title: `10초 ${k} 꿀팁`, hook: '완성된 결과부터 보여 주고 되감기', shots: ['완성된 모습 먼저', '되감기 효과로 처음으로', `핵심 ${k} 단계 하나만 클로즈업`, '다시 완성 컷'], caption: '저장해 두고 써먹기 📌', music: '깔끔한 미니멀 비트' }),
    (k) => ({ title: `낯선 사람이 매긴 ${k} 점수`, hook: '지나가는 사람에게 휴대폰을 건네며 “10점 만점에 몇 점?”', shots: ['부탁하는 장면을 뒤에서', `${k}에 대한 첫 반응`, '점수 공개 순간 정지 화면'], caption: '이 점수, 동의하시나요? 🤔', music: '퀴즈쇼 효과음' }),
    (k) => ({ title: `원테이크 ${k}`, hook: '화면에 타이머 등장: “한 번에, 컷 없이”', shots: ['타이머 시작', '중간에 아슬아슬한 순간', '타이머가 멈추며 마무리'], caption: '컷 없이 성공했을까요? ⏱️', music: '째깍거리는 소리 위에 얹은 비트' }),
    (k) => ({ title: `새벽 6시의 ${k}`, hook: '어둡고 조용한 화면, 속삭이는 “쉿”', shots: ['창으로 들어오는 첫 햇살', `아침 빛을 받은 ${k}`, '창밖으로 깨어나는 도시'], caption: '피드에서 가장 고요한 15초 ☁️', music: '잔잔한 피아노' }),
  ],
};

function plan(c: Ctx): { kws: string[]; ideas: Reel[]; tags: string } {
  const kws = c.inputs.keywords?.length ? c.inputs.keywords : [c.lang === 'ko' ? '일상' : 'everyday life'];
  const ideas = c.take(c.own(REELS[c.lang]), 3).map((idea, i) => idea(kws[i % kws.length] ?? ''));
  const extra = c.own(c.lang === 'ko' ? ['#릴스', '#릴스추천', '#일상', '#꿀팁', '#숏폼', '#오늘의기록', '#브이로그', '#챌린지'] : ['#reels', '#reelsinstagram', '#howto', '#tips', '#shortvideo', '#dailyvlog', '#creatorlife', '#challenge']);
  return { kws, ideas, tags: [...kws.map(hashtag), ...extra].slice(0, 6).join(' ') };
}

function atlas(c: Ctx): string {
  const { kws, ideas, tags } = plan(c);
  const ko = c.lang === 'ko';
  return md(
    ko ? `## 릴스 아이디어 3선: ${kws.join(' · ')}` : `## 3 Reel Ideas: ${kws.join(' · ')}`,
    ...ideas.flatMap((r, i) => [
      `### ${i + 1}. ${r.title}`,
      ko ? `- **훅 (0~2초):** ${r.hook}` : `- **Hook (0–2 s):** ${cap(r.hook)}`,
      ko ? `- **장면:** ${r.shots.join(' → ')}` : `- **Shots:** ${r.shots.map(cap).join(' → ')}`,
      ko ? `- **자막:** “${r.caption}”` : `- **Caption:** “${r.caption}”`,
      ko ? `- **음악:** ${r.music}` : `- **Sound:** ${cap(r.music)}`,
      '',
    ]),
    ko ? `**해시태그:** ${tags}\n` : `**Hashtags:** ${tags}\n`,
    ko ? '**팁:** 클로즈업을 한 번에 몰아 찍은 뒤 와이드 샷을 찍으면 촬영 시간이 절반으로 줄어듭니다.' : '**Tip:** shoot all the close-ups in one go, then the wide shots; it halves your filming time.',
  );
}

function sonnet(c: Ctx): string {
  const { ideas, tags } = plan(c);
  const ko = c.lang === 'ko';
  const scenes = ideas.map((r, i) =>
    ko
      ? `**${i + 1}. ${r.title}**\n${r.hook}${/[.!?…]$/.test(r.hook) ? '' : '.'} 이어서 ${r.shots.join(', ')}. 자막은 “${r.caption}”, 음악은 ${jo(r.music, '이')} 어울려요.`
      : `**${i + 1}. ${r.title}**\nPicture it: ${r.hook}${/[.!?”]$/.test(r.hook) ? '' : '.'} Then ${r.shots.join(', then ')}. Caption it “${r.caption}” and set it to ${r.music}.`,
  );
  const first = ideas[0]?.title ?? '';
  return md(
    ko ? '휴대폰 하나로 오늘 바로 찍을 수 있는 장면 세 개를 떠올려 봤어요.\n' : 'Here are three scenes you could shoot today with just a phone.\n',
    ...scenes.map((s) => `${s}\n`),
    ko ? `해시태그는 ${tags} 정도면 충분해요.\n` : `For hashtags, ${tags} is plenty.\n`,
    ko
      ? `저라면 “${first}”부터 찍겠어요. 첫 2초가 질문을 던져서 끝까지 보게 만들거든요. 어느 쪽이 계정 분위기에 맞나요? 고르시면 대본까지 써 드릴게요.`
      : `I’d film “${first}” first: its opening asks a question viewers want answered, so they stay to the end. Which one fits your account’s voice? I can script it in full.`,
  );
}

export const instagramReelsIdea: ToolWriters = { atlas: { en: atlas, ko: atlas }, sonnet: { en: sonnet, ko: sonnet } };
