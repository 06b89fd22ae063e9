/**
 * Netflix picks. Each model recommends from its own half of the catalogue, genre matches first:
 * Atlas as a table with a “watch first”, Sonnet as a viewing path from an easy start to the one
 * that stays with you. Both note that availability varies by country.
 */
import type { Ctx, ToolWriters } from '../context.ts';
import { josa } from '../korean.ts';
import { md, table } from '../markdown.ts';

// [category, genre tags, Korean title, English title, year, Korean pitch, English pitch]
type Show = [string, string, string, string, number, string, string];
const SHOWS: readonly Show[] = [
  ['drama', 'thriller', '오징어 게임', 'Squid Game', 2021, '빚에 몰린 사람들이 목숨을 건 어린이 게임에 뛰어든다', 'debt-ridden players risk their lives in deadly children’s games'],
  ['drama', 'sf horror', '기묘한 이야기', 'Stranger Things', 2016, '80년대 작은 마을, 사라진 소년과 뒤집힌 세계', 'a small 1980s town, a missing boy and a world turned upside down'],
  ['drama', 'thriller drama', '더 글로리', 'The Glory', 2022, '학교폭력 피해자가 오랜 세월 준비한 복수', 'a survivor of school bullying carries out a years-long revenge plan'],
  ['drama', 'romance comedy', '사랑의 불시착', 'Crash Landing on You', 2019, '패러글라이딩 사고로 북한에 불시착한 상속녀의 로맨스', 'a paragliding accident drops an heiress across the border into North Korea'],
  ['drama', 'horror action history', '킹덤', 'Kingdom', 2019, '역병이 번진 조선, 세자가 진실을 쫓는다', 'a crown prince uncovers a plague of the undead in Joseon Korea'],
  ['drama', 'drama comedy', '이상한 변호사 우영우', 'Extraordinary Attorney Woo', 2022, '자폐 스펙트럼을 가진 신입 변호사의 따뜻한 성장기', 'a brilliant rookie lawyer on the autism spectrum takes on tricky cases'],
  ['drama', 'sf thriller', '블랙 미러', 'Black Mirror', 2011, '기술이 바꿔 놓은 가까운 미래를 그린 옴니버스', 'stand-alone stories about technology’s darker side'],
  ['drama', 'crime thriller action', '종이의 집', 'Money Heist', 2017, '교수와 강도단이 조폐국을 점거하는 치밀한 작전', 'a mastermind and his crew take over the Royal Mint of Spain'],
  ['drama', 'drama history', '더 크라운', 'The Crown', 2016, '엘리자베스 2세의 치세를 따라가는 궁정 드라마', 'the reign of Elizabeth II, told decade by decade'],
  ['drama', 'sf thriller', '다크', 'Dark', 2017, '독일 소도시의 실종 사건이 시간 여행의 수수께끼로 번진다', 'a disappearance in a German town unravels into a time-travel puzzle'],
  ['drama', 'comedy fantasy horror', '웬즈데이', 'Wednesday', 2022, '아담스 가문의 딸이 기숙학교의 미스터리를 푼다', 'Wednesday Addams solves a murder mystery at boarding school'],
  ['drama', 'romance drama history', '브리저튼', 'Bridgerton', 2020, '19세기 런던 사교계의 화려한 연애담', 'romance and scandal in Regency-era London high society'],
  ['drama', 'crime drama', '나르코스', 'Narcos', 2015, '마약왕 파블로 에스코바르를 쫓는 수사극', 'the hunt for drug lord Pablo Escobar'],
  ['drama', 'drama comedy family', '슬기로운 의사생활', 'Hospital Playlist', 2020, '20년 지기 의사 다섯 명의 병원 일상', 'five doctors, friends for twenty years, and their hospital life'],
  ['drama', 'documentary family', '우리의 지구', 'Our Planet', 2019, '지구의 야생을 압도적인 영상으로 담은 다큐', 'breathtaking wildlife footage from every corner of the Earth'],
  ['drama', 'animation action fantasy', '아케인', 'Arcane', 2021, '두 도시 사이에서 갈라진 자매의 이야기', 'two sisters on opposite sides of a city at war'],
  ['drama', 'romance comedy', '에밀리, 파리에 가다', 'Emily in Paris', 2020, '시카고의 마케터가 파리 지사에서 일과 사랑을 배운다', 'a Chicago marketer takes a job in Paris and learns work and love the French way'],
  ['drama', 'romance comedy', '사내맞선', 'Business Proposal', 2022, '친구 대신 나간 맞선 자리에 회사 사장이 나타난다', 'a woman goes on a blind date in her friend’s place and finds her CEO across the table'],
  ['drama', 'romance drama', '스물다섯 스물하나', 'Twenty-Five Twenty-One', 2022, 'IMF 시절 펜싱 선수와 기자 지망생의 청춘 로맨스', 'a young fencer and an aspiring reporter come of age in 1998 Korea'],
  ['film', 'crime drama', '아이리시맨', 'The Irishman', 2019, '청부업자의 시선으로 본 반세기의 범죄사', 'a hitman looks back on decades of organised crime'],
  ['film', 'drama romance', '결혼 이야기', 'Marriage Story', 2019, '이혼을 겪는 부부의 아프고 솔직한 기록', 'an honest, painful portrait of a marriage coming apart'],
  ['film', 'comedy crime thriller', '글래스 어니언: 나이브스 아웃 미스터리', 'Glass Onion: A Knives Out Mystery', 2022, '그리스 섬 파티에서 벌어지는 살인 미스터리', 'a murder mystery at a tech billionaire’s Greek island party'],
  ['film', 'action thriller', '익스트랙션', 'Extraction', 2020, '용병이 납치된 소년을 구하러 다카로 간다', 'a mercenary fights through Dhaka to rescue a kidnapped boy'],
  ['film', 'animation fantasy action comedy', '케이팝 데몬 헌터스', 'KPop Demon Hunters', 2025, '악귀를 물리치는 케이팝 걸그룹의 활약', 'a K-pop girl group secretly hunts demons between concerts'],
  ['film', 'thriller horror', '콜', 'The Call', 2020, '낡은 전화기 하나로 20년 전의 누군가와 연결된다', 'an old phone connects two women twenty years apart'],
  ['film', 'sf action', '승리호', 'Space Sweepers', 2021, '우주 쓰레기 청소선 선원들이 위험한 비밀을 줍는다', 'a crew of space-junk collectors stumbles on a dangerous secret'],
  ['film', 'animation comedy family', '클라우스', 'Klaus', 2019, '게으른 우체부와 은둔한 장난감 장인의 우정', 'a lazy postman and a reclusive toymaker spark a legend'],
  ['film', 'comedy sf', '돈 룩 업', 'Don’t Look Up', 2021, '혜성 충돌을 경고해도 아무도 듣지 않는다', 'two astronomers warn of a comet and nobody listens'],
  ['film', 'horror thriller', '버드 박스', 'Bird Box', 2018, '눈을 가린 채 강을 건너야 살아남는 세상', 'a mother and two children cross a river blindfolded'],
  ['film', 'drama action history', '서부 전선 이상 없다', 'All Quiet on the Western Front', 2022, '1차 대전 참호 속 젊은 병사의 시선', 'a young soldier’s view of the trenches of World War I'],
  ['film', 'crime comedy family', '에놀라 홈즈', 'Enola Holmes', 2020, '셜록의 여동생이 사라진 엄마를 찾아 나선다', 'Sherlock’s younger sister sets out to find her missing mother'],
  ['film', 'romance comedy', '상사에 대처하는 로맨틱한 자세', 'Set It Up', 2018, '두 비서가 일 중독 상사들을 이어 주려 한다', 'two overworked assistants play matchmaker for their bosses'],
  ['film', 'documentary thriller', '이카루스', 'Icarus', 2017, '도핑 실험 하나가 러시아의 국가적 도핑 스캔들로 번진다', 'an amateur doping experiment uncovers a state-run doping scandal'],
  ['film', 'romance comedy', '내가 사랑했던 모든 남자들에게', 'To All the Boys I’ve Loved Before', 2018, '몰래 쓴 연애편지 다섯 통이 한꺼번에 배달된다', 'five secret love letters get mailed out all at once'],
  ['film', 'romance drama', '퍼플 하트', 'Purple Hearts', 2022, '계약 결혼으로 시작한 두 사람이 진짜 사랑에 빠진다', 'a marriage of convenience turns into the real thing'],
  ['film', 'sf horror thriller', '더 플랫폼', 'The Platform', 2019, '층마다 식탁이 내려오는 수직 감옥의 우화', 'a vertical prison where food descends one floor at a time'],
  ['film', 'drama history', '로마', 'Roma', 2018, '1970년대 멕시코시티 한 가정부의 1년', 'a year in the life of a housekeeper in 1970s Mexico City'],
];

const GENRE_TAGS: [string, RegExp][] = [
  ['thriller', /thrill|suspense|myster|스릴러|서스펜스|미스터리|추리/i],
  ['romance', /roman|love|멜로|로맨스|사랑|연애/i],
  ['comedy', /comed|funny|sitcom|코미디|코믹|웃긴/i],
  ['sf', /\bsf\b|sci-?fi|science|에스에프|공상/i],
  ['fantasy', /fantas|판타지/i],
  ['horror', /horror|scary|zombie|공포|호러|좀비/i],
  ['crime', /crime|heist|noir|범죄|느와르|누아르/i],
  ['documentary', /docu|다큐/i],
  ['action', /action|war\b|액션|전쟁/i],
  ['animation', /anim|cartoon|애니/i],
  ['history', /histor|period|사극|역사|시대극/i],
  ['family', /family|kids|가족|아이/i],
  ['drama', /drama|드라마|휴먼|감동/i],
];

/** Five titles of the asked category from this model's half, genre matches first. */
function recommend(c: Ctx): { picks: Show[]; matched: boolean; film: boolean } {
  const film = c.inputs.category === 'film';
  const tags = GENRE_TAGS.filter(([, re]) => re.test(c.inputs.genre ?? '')).map(([t]) => t);
  const score = (s: Show) => tags.filter((t) => s[1].split(' ').includes(t)).length;
  const pool = SHOWS.filter((s) => s[0] === (film ? 'film' : 'drama'));
  // Genre matches are dealt out alternately, so each model gets its share of the best fits and no title twice.
  const matches = c.own([...pool].filter((s) => score(s) > 0).sort((a, b) => score(b) - score(a)));
  const others = c.take(c.own(pool.filter((s) => score(s) === 0)), 5);
  const picks = [...matches.slice(0, 5), ...others].slice(0, 5);
  return { picks, matched: matches.length > 0, film };
}

function atlas(c: Ctx): string {
  const { picks, matched, film } = recommend(c);
  const genre = c.inputs.genre?.trim();
  const ko = c.lang === 'ko';
  const first = picks[0];
  if (ko)
    return md(
      `## 추천 ${film ? '영화' : '드라마'} 5편${genre ? `: ${genre}` : ''}`,
      genre && !matched ? `“${genre}”에 맞는 작품을 찾지 못해 두루 사랑받는 작품으로 골랐습니다.\n` : false,
      table(['#', '제목', '연도', '한 줄 소개'], picks.map((s, i) => [i + 1, `**${s[2]}**`, s[4], s[5]])),
      '',
      first ? `**먼저 볼 작품:** ${first[2]}. ${film ? '첫 장면' : '첫 회'}부터 분위기가 잡힙니다.` : false,
      '',
      '**참고:** 국가와 시점에 따라 서비스 목록이 달라, 데모 모델은 지금 볼 수 있는지 확인하지 못합니다.',
    );
  return md(
    `## 5 ${film ? 'Films' : 'Series'} for You${genre ? `: ${genre}` : ''}`,
    genre && !matched ? `No titles I know match “${genre}”, so these are broadly loved picks instead.\n` : false,
    table(['#', 'Title', 'Year', 'Pitch'], picks.map((s, i) => [i + 1, `**${s[3]}**`, s[4], s[6]])),
    '',
    first ? `**Watch first:** ${first[3]}. It sets its tone ${film ? 'in the opening scene' : 'within the first episode'}.` : false,
    '',
    '**Note:** the catalogue changes by country and over time; this demo model can’t check what is available to you right now.',
  );
}

function sonnet(c: Ctx): string {
  const { picks, film } = recommend(c);
  const genre = c.inputs.genre?.trim();
  const ko = c.lang === 'ko';
  const [a, b, ...rest] = picks;
  if (!a || !b) return '';
  if (ko)
    return md(
      `${genre ? `${genre} ` : ''}${film ? '영화' : '드라마'}를 찾으신다면, 이어 보기 좋은 순서로 권해 드릴게요.\n`,
      `가볍게 시작하려면 **${a[2]}**(${a[4]})${josa(a[2], '이')} 좋아요. 한 줄로 말하면 ‘${a[5]}’, 금방 빠져들어요.\n`,
      `그게 마음에 들었다면 다음은 **${b[2]}**(${b[4]}): ${b[5]}.\n`,
      rest.length ? `여운이 남는 쪽을 원하시면 ${rest.map((s) => `**${s[2]}**(${s[4]})`).join(', ')}도 있어요.\n` : false,
      '다만 나라마다 넷플릭스 목록이 달라서 한두 편은 지금 안 보일 수도 있어요. 재밌게 본 작품을 알려 주시면 그 결에 맞춰 다시 골라 볼까요?',
    );
  return md(
    `If you’re after ${genre ? `${genre} ` : ''}${film ? 'films' : 'series'}, here’s an order I’d watch them in.\n`,
    `Start with **${a[3]}** (${a[4]}): ${a[6]}. It’s the easiest way in.\n`,
    `If that clicks, go on to **${b[3]}** (${b[4]}): ${b[6]}.\n`,
    rest.length ? `For something that stays with you afterwards, there’s also ${rest.map((s) => `**${s[3]}** (${s[4]})`).join(', ')}.\n` : false,
    'One caveat: Netflix’s catalogue differs by country, so a title or two may be missing where you are. Tell me a show you loved and I’ll tune the list to it?',
  );
}

export const netflixRecommend: ToolWriters = { atlas: { en: atlas, ko: atlas }, sonnet: { en: sonnet, ko: sonnet } };
