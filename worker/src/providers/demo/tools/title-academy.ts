/**
 * Photo titles. The demo models can't see the photo and say so, then title a typical snapshot:
 * Atlas lists five titles with a one-line reason each and picks one; Sonnet groups its own five
 * by the kind of joke and tells which crowd each suits. The two draw from different halves of the pool.
 */
import type { Language } from '@duet/contracts';
import type { Ctx, ToolWriters } from '../context.ts';
import { jo, josa } from '../korean.ts';
import { md, numbered } from '../markdown.ts';

const TITLES: Record<Language, [string, string][]> = {
  en: [
    ['When the Plan Was ‘Just One Quick Photo’', 'everyone knows one photo is never just one photo'],
    ['Main Character Energy, Side Quest Budget', 'the mood is cinematic, the reality is wonderfully ordinary'],
    ['Me, Pretending This Was Totally Planned', 'we all dress up happy accidents as strategy'],
    ['The Exact Moment Monday Found Me', 'it lays a universal feeling over the expression in the frame'],
    ['Five Minutes Before Everything Got Interesting', 'it makes viewers imagine the next scene'],
    ['Officially in Charge of the Vibe', 'it crowns the main subject in a single line'],
    ['Plot Twist: Nobody Was Ready', 'it turns an awkward moment into a movie trailer'],
    ['This Is Fine. Everything Is Fine.', 'the gap between the calm caption and the scene is the joke'],
    ['Peak Weekend, Captured Live', 'it exaggerates an everyday moment into breaking news'],
    ['A Documentary Nobody Asked For, Episode 1', 'serious format, tiny subject: classic contrast humour'],
  ],
  ko: [
    ['딱 한 장만 찍자던 그날', '“한 장만”이 절대 한 장으로 끝나지 않는다는 공감 포인트'],
    ['주인공 기운, 엑스트라 예산', '분위기는 영화인데 현실은 소박한 대비'],
    ['원래 계획한 척 중입니다', '우연을 계획처럼 포장하는 모두의 모습'],
    ['월요일이 나를 찾아낸 순간', '사진 속 표정에 월요병을 겹친 반전'],
    ['재밌어지기 5분 전', '사진 다음 장면을 상상하게 만드는 여운'],
    ['이 구역 분위기 담당', '사진 속 주인공을 한 줄로 정리'],
    ['반전: 아무도 준비되지 않았다', '어색한 순간을 영화 예고편처럼 포장'],
    ['괜찮아, 다 계획대로야', '차분한 제목과 상황의 온도 차'],
    ['주말의 정점, 실시간 포착', '평범한 순간을 속보처럼 과장'],
    ['아무도 안 시킨 다큐멘터리 1화', '진지한 형식과 사소한 내용의 대비'],
  ],
};

/** Subjects a visitor's note may name, each with a title per persona (atlas first), so a described photo gets a title of its own. */
const SUBJECTS: { re: RegExp; name: Record<Language, string>; titles: Record<Language, [[string, string], [string, string]]> }[] = [
  {
    re: /\bcats?\b|kitten|고양이|냥/i,
    name: { en: 'a cat', ko: '고양이' },
    titles: {
      en: [['The Cat Has Approved This Message', 'cats act like managers, and everyone knows it'], ['I Live Here Too, Apparently', 'told from the cat’s point of view, it lands every time']],
      ko: [['집사 결재 완료', '고양이가 상사처럼 구는 공감 포인트'], ['이 집 주인은 나다옹', '고양이 시점으로 바꾼 반전']],
    },
  },
  {
    re: /\bdogs?\b|pupp|강아지|댕댕|멍멍/i,
    name: { en: 'a dog', ko: '강아지' },
    titles: {
      en: [['Certified Good Boy, Pending Review', 'it turns a pet photo into paperwork'], ['He Heard the Word “Walk”', 'every dog owner knows that exact face']],
      ko: [['산책이라는 단어를 들은 표정', '견주라면 다 아는 바로 그 얼굴'], ['오늘도 간식 협상 중', '강아지의 눈빛을 협상으로 포장']],
    },
  },
  {
    re: /food|dinner|lunch|breakfast|cake|pizza|음식|밥|케이크|피자|요리/i,
    name: { en: 'food', ko: '음식' },
    titles: {
      en: [['Calories Don’t Count on Weekends', 'the excuse everyone has used at least once'], ['It Looked Like This for Four Seconds', 'the honest truth about food photos']],
      ko: [['주말 칼로리는 0칼로리', '누구나 한 번쯤 써 본 핑계'], ['이 모습은 딱 4초 유지됐습니다', '음식 사진의 솔직한 진실']],
    },
  },
  {
    re: /beach|sea|ocean|바다|해변|바닷가/i,
    name: { en: 'the sea', ko: '바다' },
    titles: {
      en: [['Out of Office: Permanently, Ideally', 'the beach turns every caption into a wish'], ['Vitamin Sea, Full Dose', 'a pun that still works because it’s true']],
      ko: [['부재중: 가능하면 영원히', '바다 앞에서는 누구나 퇴사를 꿈꾸는 공감'], ['파도 소리 ASMR 실시간', '사진에 소리를 입히는 상상']],
    },
  },
];

/** Five titles from this persona's half of the pool; the first is about the subject the note names, if any. */
function picks(c: Ctx): { list: [string, string][]; subject?: string } {
  const own = c.take(c.own(TITLES[c.lang]), 5);
  const hit = SUBJECTS.find((s) => s.re.test(c.text));
  if (!hit) return { list: own };
  const mine = hit.titles[c.lang][c.persona === 'atlas' ? 0 : 1];
  return { list: [mine, ...own.slice(0, 4)], subject: hit.name[c.lang] };
}

const SEE: Record<Language, { atlas: [string, string]; sonnet: [string, string] }> = {
  en: {
    atlas: ['This demo model can’t see images, so these titles fit a typical everyday snapshot.', 'No photo came through, so these titles fit a typical everyday snapshot.'],
    sonnet: ['I have to admit I can’t actually see your photo (I’m a demo model), so I wrote titles that work for most candid shots.', 'The photo didn’t come through, so I wrote titles that work for most candid shots.'],
  },
  ko: {
    atlas: ['데모 모델은 이미지를 볼 수 없어, 일상 사진에 두루 어울리는 제목으로 지었습니다.', '사진이 첨부되지 않아 일상 사진에 두루 어울리는 제목으로 지었습니다.'],
    sonnet: ['솔직히 말하면 데모 모델이라 사진을 직접 보지는 못해요. 그래서 어떤 스냅 사진에도 어울릴 제목으로 골라 봤어요.', '사진이 보이지 않아서, 어떤 스냅 사진에도 어울릴 제목으로 골라 봤어요.'],
  },
};

function atlas(c: Ctx): string {
  const { list, subject } = picks(c);
  const best = list[0]?.[0] ?? '';
  const ko = c.lang === 'ko';
  return md(
    ko ? '## 사진 제목 5선' : '## 5 Titles for Your Photo',
    `${SEE[c.lang].atlas[c.hasImage ? 0 : 1]}${subject ? (ko ? ` 메모에 ${jo(subject, '이')} 있어 1번은 그에 맞췄습니다.` : ` Your note mentions ${subject}, so the first one is about that.`) : ''}\n`,
    ...numbered(list.map(([t, why]) => `**“${t}”**: ${why}`)),
    '',
    ko ? `**최종 추천:** “${best}”. 짧고 설명 없이도 통합니다.` : `**Top pick:** “${best}”. Short, and it works without context.`,
  );
}

function sonnet(c: Ctx): string {
  const { list, subject } = picks(c);
  const [fav, ...rest] = list;
  const ko = c.lang === 'ko';
  if (!fav) return '';
  return md(
    `${SEE[c.lang].sonnet[c.hasImage ? 0 : 1]}${subject ? (ko ? ` 다만 ${jo(subject, '이')} 나온다고 적어 주셔서 그걸 살린 제목부터 골랐어요.` : ` You mentioned ${subject}, though, so my favourite is built around that.`) : ''}\n`,
    ko
      ? `제 원픽은 **“${fav[0]}”**${josa(fav[0], '이에요')}. ${fav[1]}${josa(fav[1], '이')} 살아 있어서, 단톡방에 올리면 바로 반응이 올 거예요.\n`
      : `My favourite is **“${fav[0]}”**: ${fav[1]}, so it tends to get a reaction in a group chat straight away.\n`,
    ko ? '분위기가 다른 후보도 있어요.' : 'A few others, each with a different flavour:',
    '',
    ...rest.map(([t, why]) => `- *${t}*: ${why}`),
    '',
    ko ? '유머는 보는 사람에 따라 달라서, 공개 게시물이라면 조금 더 담백한 쪽이 안전해요. 사진 속 장면을 한 줄로 알려 주시면 더 딱 맞게 지어 볼까요?' : 'Humour depends on the audience, so for a public post the gentler ones are safer. If you describe the photo in a line, shall I tailor them to it?',
  );
}

export const titleAcademy: ToolWriters = { atlas: { en: atlas, ko: atlas }, sonnet: { en: sonnet, ko: sonnet } };
