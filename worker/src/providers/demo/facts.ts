/**
 * The small store of facts the demo models can answer from: capitals and common quiz facts, in
 * both languages. A question part that matches none of them gets an honest “I can't look this up”.
 */
import type { Language } from '@duet/contracts';
import type { Bi } from './context.ts';
import { jo } from './korean.ts';

/** A fact a question part may ask for: the answer and one line of support. */
export interface Fact {
  answer: Bi;
  note: Bi;
}

// [English country, Korean country, English capital, Korean capital, a note on a common mix-up]
const CAPITALS: [string, string, string, string, Bi?][] = [
  ['Australia', '호주', 'Canberra', '캔버라', { en: 'not Sydney, the largest city', ko: '가장 큰 도시인 시드니가 아님' }],
  ['Canada', '캐나다', 'Ottawa', '오타와', { en: 'not Toronto', ko: '토론토가 아님' }],
  ['Brazil', '브라질', 'Brasília', '브라질리아', { en: 'not Rio de Janeiro, which it replaced in 1960', ko: '1960년에 리우데자네이루를 대신함' }],
  ['Turkey', '튀르키예', 'Ankara', '앙카라', { en: 'not Istanbul', ko: '이스탄불이 아님' }],
  ['Switzerland', '스위스', 'Bern', '베른', { en: 'not Zurich or Geneva', ko: '취리히나 제네바가 아님' }],
  ['New Zealand', '뉴질랜드', 'Wellington', '웰링턴', { en: 'not Auckland', ko: '오클랜드가 아님' }],
  ['South Korea', '한국', 'Seoul', '서울'],
  ['Japan', '일본', 'Tokyo', '도쿄'],
  ['China', '중국', 'Beijing', '베이징'],
  ['France', '프랑스', 'Paris', '파리'],
  ['Germany', '독일', 'Berlin', '베를린'],
  ['Italy', '이탈리아', 'Rome', '로마'],
  ['Spain', '스페인', 'Madrid', '마드리드'],
  ['United Kingdom', '영국', 'London', '런던'],
  ['United States', '미국', 'Washington, D.C.', '워싱턴 D.C.', { en: 'not New York', ko: '뉴욕이 아님' }],
  ['Egypt', '이집트', 'Cairo', '카이로'],
  ['India', '인도', 'New Delhi', '뉴델리'],
  ['Vietnam', '베트남', 'Hanoi', '하노이', { en: 'not Ho Chi Minh City', ko: '호찌민시가 아님' }],
  ['Thailand', '태국', 'Bangkok', '방콕'],
  ['Mexico', '멕시코', 'Mexico City', '멕시코시티'],
  ['Argentina', '아르헨티나', 'Buenos Aires', '부에노스아이레스'],
  ['Russia', '러시아', 'Moscow', '모스크바'],
  ['Norway', '노르웨이', 'Oslo', '오슬로'],
  ['Sweden', '스웨덴', 'Stockholm', '스톡홀름'],
  ['Finland', '핀란드', 'Helsinki', '헬싱키'],
  ['Netherlands', '네덜란드', 'Amsterdam', '암스테르담'],
  ['Portugal', '포르투갈', 'Lisbon', '리스본'],
  ['Greece', '그리스', 'Athens', '아테네'],
  ['Indonesia', '인도네시아', 'Jakarta', '자카르타'],
  ['Philippines', '필리핀', 'Manila', '마닐라'],
  ['Kenya', '케냐', 'Nairobi', '나이로비'],
  ['Morocco', '모로코', 'Rabat', '라바트', { en: 'not Casablanca or Marrakesh', ko: '카사블랑카나 마라케시가 아님' }],
  ['Nigeria', '나이지리아', 'Abuja', '아부자', { en: 'not Lagos', ko: '라고스가 아님' }],
  ['Pakistan', '파키스탄', 'Islamabad', '이슬라마바드', { en: 'not Karachi', ko: '카라치가 아님' }],
];

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function capitalOf(part: string): Fact | undefined {
  if (!/capital|수도/i.test(part)) return undefined;
  const hit = CAPITALS.find(([en, ko]) => new RegExp(`\\b${escape(en)}\\b|${escape(ko)}`, 'i').test(part) || (en === 'United States' && /\bUSA?\b|America/.test(part)) || (en === 'United Kingdom' && /\bUK\b|Britain|England/.test(part)));
  if (!hit) return undefined;
  const [en, ko, capEn, capKo, mixUp] = hit;
  return {
    answer: { en: capEn, ko: capKo },
    note: {
      en: `${capEn} is the capital of ${en}${mixUp ? ` (${mixUp.en})` : ''}.`,
      ko: `${ko}의 수도는 ${jo(capKo, '이에요')}${mixUp ? ` (${mixUp.ko})` : ''}.`,
    },
  };
}

// [pattern, English answer, Korean answer, English note, Korean note]
const FACTS: [RegExp, string, string, string, string][] = [
  [/red planet|붉은 행성/i, 'Mars', '화성', 'Iron oxide (rust) in its dust gives Mars its red colour.', '표면 먼지의 산화철(녹) 때문에 붉게 보여요.'],
  [/largest planet|biggest planet|가장 큰 행성/i, 'Jupiter', '목성', 'Jupiter is more than twice as massive as all the other planets combined.', '목성의 질량은 나머지 행성을 모두 합친 것의 두 배가 넘어요.'],
  [/(most|many) moons|위성이 가장 많은/i, 'Saturn', '토성', 'Saturn has the most confirmed moons (well over 140 as of 2025); the count keeps growing.', '2025년 기준 확인된 위성이 140개가 넘는 토성이 1위이고, 숫자는 계속 늘고 있어요.'],
  [/closest (planet )?to the sun|태양(에서|과) 가장 가까운/i, 'Mercury', '수성', 'Mercury orbits the Sun at about 58 million km.', '수성은 태양에서 약 5,800만 km 떨어져 돌아요.'],
  [/(tallest|highest) mountain|가장 높은 산/i, 'Mount Everest', '에베레스트산', 'Its summit is 8,849 m above sea level.', '해발 8,849m로 세계에서 가장 높아요.'],
  [/(largest|biggest) ocean|가장 (큰|넓은) (바다|대양)/i, 'the Pacific Ocean', '태평양', 'The Pacific covers about a third of Earth’s surface.', '태평양은 지구 표면의 약 3분의 1을 덮어요.'],
  [/longest river|가장 긴 강/i, 'the Nile', '나일강', 'The Nile (about 6,650 km) is usually listed first, though some measurements put the Amazon ahead.', '보통 나일강(약 6,650km)을 꼽지만, 측정 방법에 따라 아마존강이 더 길다는 주장도 있어요.'],
  [/how many continents|대륙은 몇/i, '7', '7개', 'The usual count is seven: Asia, Africa, North America, South America, Antarctica, Europe and Australia.', '흔히 아시아, 아프리카, 북아메리카, 남아메리카, 남극, 유럽, 오세아니아의 일곱으로 셉니다.'],
  [/water.*boil|boil.*water|boiling point|끓는점/i, '100 °C', '100°C', 'Water boils at 100 °C (212 °F) at sea-level pressure.', '1기압에서 물은 100°C에 끓어요.'],
  [/chemical symbol.*gold|gold.*symbol|금의 (원소|화학) ?기호/i, 'Au', 'Au', 'Au comes from the Latin “aurum”.', '라틴어 aurum에서 왔어요.'],
  [/chemical symbol.*(sodium)|나트륨.*기호/i, 'Na', 'Na', 'Na comes from the Latin “natrium”.', '라틴어 natrium에서 왔어요.'],
  [/\bH2O\b|water.*formula|물의 화학식/i, 'H₂O', 'H₂O', 'Two hydrogen atoms and one oxygen atom.', '수소 원자 둘과 산소 원자 하나로 이루어져요.'],
  [/hamlet|햄릿/i, 'William Shakespeare', '윌리엄 셰익스피어', 'Hamlet was written around 1600.', '1600년 무렵에 쓰였어요.'],
  [/mona lisa|모나리자/i, 'Leonardo da Vinci', '레오나르도 다빈치', 'Painted in the early 1500s; it hangs in the Louvre.', '1500년대 초에 그렸고 루브르 박물관에 있어요.'],
  [/hangul|hangeul|한글.*(만든|창제)|(만든|창제).*한글/i, 'King Sejong the Great', '세종대왕', 'Hangul was proclaimed in 1446 as Hunminjeongeum.', '1446년 훈민정음으로 반포되었어요.'],
  [/speed of light|빛의 속도|광속/i, 'about 300,000 km/s', '약 30만 km/s', 'Exactly 299,792,458 m/s in a vacuum.', '진공에서 정확히 초속 299,792,458m예요.'],
  [/days.*leap year|윤년.*며칠/i, '366', '366일', 'A leap year adds 29 February.', '윤년에는 2월 29일이 더해져요.'],
  [/largest (animal|mammal)|가장 큰 (동물|포유)/i, 'the blue whale', '대왕고래', 'It can pass 30 m in length.', '몸길이가 30m를 넘기도 해요.'],
  [/fastest land animal|가장 빠른 (육상 )?동물/i, 'the cheetah', '치타', 'It sprints at roughly 100 km/h over short distances.', '짧은 거리에서는 시속 100km 가까이 달려요.'],
  [/how many planets|행성은 (모두 )?몇/i, '8', '8개', 'Eight: Mercury, Venus, Earth, Mars, Jupiter, Saturn, Uranus and Neptune (Pluto became a dwarf planet in 2006).', '수성, 금성, 지구, 화성, 목성, 토성, 천왕성, 해왕성의 여덟이에요 (명왕성은 2006년에 왜소행성이 되었어요).'],
  [/bones.*(adult|human)|(adult|human).*bones|뼈.*몇 ?개/i, '206', '206개', 'An adult skeleton has 206 bones; a newborn has around 300 that later fuse.', '성인의 뼈는 206개이고, 갓난아기는 300개쯤이던 뼈가 자라며 붙어요.'],
  [/first (person|man|human) (on|to walk on) the moon|달에 (처음|최초로).*(사람|착륙|발)/i, 'Neil Armstrong', '닐 암스트롱', 'Neil Armstrong stepped onto the Moon on 20 July 1969 (Apollo 11).', '1969년 7월 20일 아폴로 11호로 달에 첫발을 디뎠어요.'],
  [/(largest|biggest) country|가장 (큰|넓은) 나라/i, 'Russia', '러시아', 'Russia covers about 17 million km², roughly one-ninth of Earth’s land.', '면적이 약 1,700만 km²로 지구 육지의 9분의 1쯤이에요.'],
  [/smallest country|가장 작은 나라/i, 'Vatican City', '바티칸 시국', 'Vatican City covers about 0.44 km².', '면적이 약 0.44km²예요.'],
  [/hardest (natural )?(substance|mineral)|가장 단단한 (물질|광물)/i, 'diamond', '다이아몬드', 'Diamond tops the Mohs hardness scale at 10.', '모스 굳기계에서 10으로 가장 단단해요.'],
  [/water.*freez|freez.*water|freezing point|어는점/i, '0 °C', '0°C', 'Pure water freezes at 0 °C (32 °F) at sea-level pressure.', '1기압에서 순수한 물은 0°C에 얼어요.'],
  [/romeo and juliet|로미오와 줄리엣/i, 'William Shakespeare', '윌리엄 셰익스피어', 'Shakespeare wrote it in the mid-1590s.', '1590년대 중반에 쓰였어요.'],
  [/starry night|별이 빛나는 밤/i, 'Vincent van Gogh', '빈센트 반 고흐', 'Van Gogh painted it in June 1889 at Saint-Rémy-de-Provence.', '1889년 6월 생레미드프로방스에서 그렸어요.'],
  [/korea.*liberat|광복.*(년|언제)/i, '1945', '1945년', 'Korea was liberated on 15 August 1945.', '1945년 8월 15일이에요.'],
  [/largest desert|가장 큰 사막/i, 'Antarctica (the Sahara among hot deserts)', '남극 (더운 사막 중에서는 사하라)', 'Deserts are defined by low rainfall, so Antarctica counts; the Sahara is the largest hot desert.', '사막은 강수량으로 정하니 남극이 가장 크고, 더운 사막 중에서는 사하라가 가장 커요.'],
  [/world war (ii|2|two) end|2차 (세계 )?대전.*끝/i, '1945', '1945년', 'It ended in 1945: in Europe in May, in the Pacific in September.', '유럽에서는 5월, 태평양에서는 9월에 끝났어요.'],
];

/** The fact a question part asks for, if the demo models know it. */
export function factFor(part: string): Fact | undefined {
  const capital = capitalOf(part);
  if (capital) return capital;
  const hit = FACTS.find(([re]) => re.test(part));
  return hit && { answer: { en: hit[1], ko: hit[2] }, note: { en: hit[3], ko: hit[4] } };
}

/** A question split into its parts: “Capital of Australia? Also 12 + 7” → two parts. */
export function partsOf(text: string, lang: Language): string[] {
  const joiner = lang === 'ko' ? /\s*(?:그리고|또한|또|그리고 또)\s+/ : /\s*\b(?:and also|also)\b[,:]?\s*/i;
  return text
    .split(/(?<=[?？])\s*|\n+|;\s*/)
    .flatMap((p) => p.split(joiner))
    .map((p) => p.trim().replace(/^[,.:\s]+/, ''))
    .filter((p) => /[\p{L}\p{N}]/u.test(p));
}
