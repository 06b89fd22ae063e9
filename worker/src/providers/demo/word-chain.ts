/**
 * The word-chain game (끝말잇기): the demo models' word lists and one move of the game. Korean
 * follows 두음법칙 (a word ending in 력 may be answered with 역…); English chains on the last letter.
 */
import type { Language } from '@duet/contracts';
import { dueum, isHangul } from './korean.ts';

/** A word the demo models know, with a one-line meaning. */
export type Entry = readonly [word: string, meaning: string];

function parseWords(s: string): Map<string, Entry[]> {
  const map = new Map<string, Entry[]>();
  for (const entry of s.split('|')) {
    const [word = '', def = ''] = entry.split('=');
    const first = Array.from(word)[0] ?? '';
    map.set(first, [...(map.get(first) ?? []), [word, def]]);
  }
  return map;
}

export const KO_WORDS = parseWords(
  '과자=밀가루나 쌀로 만든 간식|과일=사과나 배처럼 먹는 열매|차표=기차나 버스를 탈 때 사는 표|차례=순서대로 돌아오는 자리|기린=목이 아주 긴 초식 동물|기차=철길 위를 달리는 열차|' +
    '리본=묶어서 꾸미는 띠|리듬=소리의 길고 짧음이 되풀이되는 흐름|구름=하늘에 떠 있는 작은 물방울 덩어리|구두=가죽으로 만든 신발|무지개=비 갠 뒤 하늘에 뜨는 일곱 빛깔 띠|' +
    '무릎=넓적다리와 정강이 사이의 관절|자석=쇠를 끌어당기는 물체|자전거=페달을 밟아 굴러가는 탈것|다리미=옷의 주름을 펴는 도구|다람쥐=볼에 도토리를 모으는 작은 동물|' +
    '음악=소리로 감정을 표현하는 예술|음식=사람이 먹는 모든 것|낭만=감미롭고 이상적인 분위기|내일=오늘의 바로 다음 날|수박=여름에 먹는 크고 둥근 과일|수영=물속을 헤엄치는 운동|' +
    '물감=그림에 색을 칠하는 재료|물개=바다에 사는 포유동물|국자=국을 뜨는 큰 숟가락|국수=밀가루 반죽을 길게 뽑은 음식|일기=하루의 일을 적는 기록|일요일=한 주의 쉬는 날|' +
    '교실=수업을 하는 방|교과서=학교 수업에 쓰는 책|생일=태어난 날|생선=먹으려고 잡은 물고기|장미=가시가 있는 붉은 꽃|장갑=손을 감싸는 옷|식물=뿌리를 내리고 자라는 생물|' +
    '식탁=음식을 차려 놓고 먹는 탁자|화분=꽃이나 풀을 심는 그릇|화가=그림을 그리는 사람|시계=시간을 알려 주는 기계|시소=양쪽에 앉아 오르내리는 놀이 기구|지도=땅의 모습을 줄여 그린 그림|' +
    '지구=우리가 사는 행성|도토리=참나무의 열매|도서관=책을 모아 두고 빌려주는 곳|우산=비를 가리는 도구|우체국=편지와 소포를 보내는 곳|유리=투명하고 단단한 물질|유령=떠도는 혼이라는 상상의 존재|' +
    '스키=눈 위를 미끄러져 내려가는 운동|스웨터=털실로 짠 윗옷|드럼=두드려 소리를 내는 타악기|트럭=짐을 싣는 큰 자동차|오리=부리가 넓적한 물새|오이=길쭉한 초록 채소|이불=잘 때 덮는 천|' +
    '이름=사람이나 사물을 부르는 말|아기=갓 태어난 어린아이|아침=하루가 시작되는 때|비누=거품을 내어 씻는 물건|비행기=하늘을 나는 탈것|사자=갈기가 있는 맹수|사탕=달콤한 작은 과자|' +
    '가방=물건을 넣어 드는 주머니|가위=종이나 천을 자르는 도구|나비=날개가 고운 곤충|나무=줄기와 가지가 있는 식물|미소=소리 없이 짓는 웃음|미역=바다에서 나는 해조류|개미=부지런한 작은 곤충|' +
    '개나리=봄에 피는 노란 꽃|문어=다리가 여덟 개인 바다 동물|문제=풀어야 할 물음|책상=책을 놓고 공부하는 탁자|상자=물건을 담는 네모난 통|방석=바닥에 깔고 앉는 깔개|석양=저녁에 지는 해|' +
    '정원=꽃과 나무를 가꾸는 뜰|원숭이=나무를 잘 타는 동물|치즈=우유를 굳혀 만든 음식|치약=이를 닦을 때 쓰는 약|약국=약을 파는 곳|탁구=작은 공을 라켓으로 치는 운동|표범=점무늬가 있는 맹수|' +
    '범인=죄를 지은 사람|인형=사람이나 동물 모양의 장난감|형제=형과 아우|제비=봄에 오는 날쌘 새|고래=바다에 사는 가장 큰 포유동물|고양이=야옹 하고 우는 반려동물|양말=발에 신는 얇은 옷|' +
    '말벌=몸집이 큰 벌|벌레=작은 곤충을 두루 이르는 말|레몬=신맛이 강한 노란 과일|감자=땅속에서 자라는 둥근 작물|전화=멀리 있는 사람과 말하는 기계|하늘=머리 위로 펼쳐진 공간|' +
    '라면=꼬불꼬불한 면을 끓여 먹는 음식|면도기=수염을 깎는 도구|주사위=숫자 눈이 새겨진 정육면체|박물관=유물을 모아 전시하는 곳|남쪽=한낮에 해가 있는 방향|선물=마음을 담아 주는 물건|' +
    '임금=옛날 나라를 다스리던 사람|금요일=주말을 앞둔 날|요리=음식을 만드는 일|복숭아=여름에 나는 분홍빛 과일|키위=털이 난 초록 과일|두부=콩으로 만든 하얀 음식|부엉이=밤에 활동하는 새|' +
    '어머니=나를 낳아 주신 분|벽돌=흙을 구워 만든 건축 재료|돌고래=영리한 바다 포유동물|연필=흑심으로 글씨를 쓰는 도구|필통=연필을 넣는 통|공룡=아주 옛날에 살던 거대한 파충류|' +
    '용기=겁내지 않는 씩씩한 마음|통닭=통째로 튀기거나 구운 닭|마을=사람들이 모여 사는 곳|울타리=집 둘레를 막은 담|' +
    '냄비=음식을 끓이는 그릇|냉장고=음식을 차게 보관하는 기계|내복=겉옷 안에 입는 옷|노을=해 질 녘 붉게 물든 하늘|노트=글을 적는 공책|' +
    '기러기=줄지어 날아가는 철새|기둥=지붕을 받치는 굵은 나무나 돌|자두=새콤한 붉은 여름 과일|자동차=엔진으로 달리는 탈것|이마=눈썹 위의 얼굴 부분|' +
    '이야기=있었던 일을 들려주는 말|지붕=집 꼭대기를 덮은 덮개|지렁이=흙 속에 사는 가늘고 긴 동물|수건=몸을 닦는 천|수레=바퀴를 달아 끄는 탈것|' +
    '도마=칼질할 때 받치는 판|도자기=흙으로 빚어 구운 그릇|구슬=둥글고 작은 유리 알|사다리=높은 곳에 오르는 도구|사진=카메라로 찍은 그림|' +
    '스님=절에서 수행하는 사람|드라마=텔레비전 연속극|트럼펫=금속으로 만든 관악기|크레파스=색칠하는 막대 모양 재료|비둘기=공원에서 흔한 회색 새|' +
    '미술=그림이나 조각 같은 예술|니트=실로 짠 옷|치마=허리 아래를 감싸는 옷|나팔=입으로 부는 악기|나라=국민과 영토가 있는 국가|' +
    '마차=말이 끄는 수레|마늘=맵고 향이 강한 양념 채소|바다=지구를 덮은 넓은 소금물|바람=움직이는 공기|다리=몸을 받치고 걷는 부분|' +
    '하마=물가에 사는 덩치 큰 동물|소나기=갑자기 쏟아지다 그치는 비|소금=짠맛을 내는 하얀 알갱이|오징어=다리가 열 개인 바다 동물|우유=소의 젖|' +
    '주전자=물을 끓이거나 따르는 그릇|무대=공연을 하는 곳|부채=바람을 일으키는 도구|호랑이=줄무늬가 있는 큰 맹수|호박=크고 둥근 채소|' +
    '해바라기=해를 따라 도는 큰 노란 꽃|개구리=폴짝폴짝 뛰는 양서류|대나무=속이 빈 곧은 나무|새우=등이 굽은 작은 바다 동물|제주도=우리나라에서 가장 큰 섬|' +
    '세탁기=빨래를 하는 기계|거북이=등딱지가 단단한 느린 동물|거울=모습을 비추는 유리|고구마=땅속에서 자라는 달콤한 뿌리|포도=송이로 달리는 보라색 열매|' +
    '토끼=귀가 긴 작은 동물|피아노=건반을 눌러 소리 내는 악기|여우=꼬리가 탐스러운 영리한 동물|여름=가장 더운 계절|역사=지나온 일의 기록|' +
    '연못=물이 고인 작은 못|열쇠=자물쇠를 여는 도구|영화=스크린에 비추는 이야기|예술=아름다움을 표현하는 활동|요정=작고 신비한 상상의 존재|' +
    '육지=물에 덮이지 않은 땅|이슬=아침 풀잎에 맺힌 물방울|인사=만나거나 헤어질 때의 예절|노루=뿔이 작은 사슴과 동물|농구=공을 바구니에 넣는 운동|' +
    '누나=남자가 손위 여자 형제를 부르는 말|뉴스=새로운 소식|눈사람=눈을 뭉쳐 만든 사람 모양',
);

export const EN_WORDS = parseWords(
  'apple=a crisp fruit from an orchard tree|anchor=a heavy hook that holds a ship in place|arrow=a pointed shaft shot from a bow|banana=a long yellow tropical fruit|' +
    'bridge=a structure that carries a road over water|button=a small disc that fastens clothes|candle=a wax stick that gives light as it burns|castle=a fortified home of a medieval lord|' +
    'cactus=a spiny desert plant that stores water|dolphin=a clever, playful sea mammal|desert=a dry land with very little rain|dragon=a winged, fire-breathing creature of legend|' +
    'eagle=a large bird of prey with sharp eyes|engine=a machine that turns fuel into motion|elbow=the joint in the middle of your arm|falcon=the fastest diving bird on Earth|' +
    'forest=a large area covered with trees|feather=one of the light plumes covering a bird|garden=a plot where flowers or vegetables grow|guitar=a stringed instrument you strum|' +
    'glacier=a slow river of ice|harbor=a sheltered place where ships dock|helmet=a hard hat that protects the head|honey=sweet syrup made by bees|island=land surrounded by water|' +
    'igloo=a dome-shaped house of snow blocks|ink=coloured liquid for writing|jacket=a short coat|jungle=a dense tropical forest|jigsaw=a picture puzzle cut into pieces|' +
    'kettle=a pot for boiling water|kingdom=a country ruled by a king or queen|koala=a tree-dwelling Australian marsupial|lantern=a portable case that holds a light|lemon=a sour yellow citrus fruit|' +
    'ladder=a set of rungs for climbing|mirror=a glass that reflects images|meadow=a field of grass and wildflowers|magnet=an object that attracts iron|needle=a thin pointed tool for sewing|' +
    'nest=a home a bird builds for its eggs|number=a value used for counting|ocean=a vast body of salt water|orbit=the curved path around a planet or star|onion=a layered, pungent vegetable|' +
    'pencil=a writing tool with a graphite core|planet=a world that circles a star|puzzle=a game that tests ingenuity|quartz=a hard, glassy mineral|quill=a feather used as a pen|' +
    'queen=a female monarch|rabbit=a small mammal with long ears|river=a large natural stream of water|rocket=a vehicle pushed by exhaust gases|saddle=a seat for a rider on a horse|' +
    'shadow=a dark shape where light is blocked|spoon=a utensil with a shallow bowl|tiger=a large striped wild cat|tunnel=an underground passage|thunder=the boom that follows lightning|' +
    'umbrella=a folding canopy against rain|uniform=matching clothes worn by a group|universe=everything that exists|valley=low land between hills|violin=a small bowed string instrument|' +
    'volcano=a mountain that can erupt lava|walrus=a tusked Arctic sea mammal|window=an opening that lets in light|whistle=a small device that makes a shrill sound|' +
    'xylophone=a percussion instrument with wooden bars|yacht=a sailing boat used for leisure|yogurt=a tangy food made from milk|yarn=spun thread for knitting|zebra=a striped African horse|' +
    'zipper=a fastener with interlocking teeth|zenith=the highest point in the sky',
);


/** Syllables few Korean words start with: ending on one is a strong move. */
const KO_HARD = new Set(Array.from('릎름듬늄슭녘쁨즘꾼껏륨픔꿈뭇늬윰'));
/** Letters few English words start with. */
const EN_HARD = new Set(Array.from('xzqjvky'));

/** How many words the lists know that start with `ch` (counting the 두음법칙 form). */
export function followers(ch: string, lang: Language): number {
  if (lang === 'en') return EN_WORDS.get(ch)?.length ?? 0;
  return (KO_WORDS.get(ch)?.length ?? 0) + (KO_WORDS.get(dueum(ch) ?? '')?.length ?? 0);
}

/** True when few words follow `ch`: a tough letter to be left with. */
export const isHard = (ch: string, lang: Language): boolean =>
  (lang === 'en' ? EN_HARD : KO_HARD).has(ch) || followers(ch, lang) === 0;

/** The letter a word chains on: its last Hangul syllable, or its last Latin letter in lower case. */
export function lastLetter(word: string): string | undefined {
  const letters = Array.from(word).filter((ch) => isHangul(ch) || /[a-z]/i.test(ch));
  const last = letters.at(-1);
  return last && (isHangul(last) ? last : last.toLowerCase());
}

/** The syllables a reply to `last` may start with: the letter itself and its 두음법칙 form. */
export function startsFor(last: string): string[] {
  const alt = isHangul(last) ? dueum(last) : undefined;
  return alt ? [last, alt] : [last];
}

/** True when `next` is a legal reply to `prev`: it starts with prev's last letter (or its 두음법칙 form). */
export function chains(prev: string, next: string): boolean {
  const last = lastLetter(prev);
  const first = Array.from(next)[0] ?? '';
  return last !== undefined && startsFor(last).includes(isHangul(first) ? first : first.toLowerCase());
}

/** One turn of the game. */
export interface Move {
  /** The visitor's word, as played (letters only, trimmed). */
  given: string;
  lang: Language;
  /** The letter to chain on; undefined when the word has no letters. */
  last?: string;
  /** The 두음법칙 form of `last`, when there is one. */
  alt?: string;
  /** The reply and its meaning; undefined when no known word fits (the visitor wins). */
  reply?: Entry;
  /** Another word that would have fitted. */
  other?: string;
  /** The letter the visitor must now chain on. */
  next?: string;
  /** True when `next` is a tough letter to follow. */
  hard: boolean;
  /** Rule notes about the visitor's word: one letter long, or not a single word. */
  oneLetter: boolean;
  severalWords: boolean;
}

/**
 * Plays one move. `strategy` decides between fitting words: `trap` prefers a word whose last
 * letter few words follow (a competitive player), `friendly` one that leaves an easy letter and is
 * never the word `trap` would play, so the two demo models always answer differently when they can.
 */
export function playMove(text: string, lang: Language, strategy: 'trap' | 'friendly'): Move {
  const given = text.trim().split(/\s+/).join(' ').slice(0, 40);
  const letters = Array.from(given).filter((ch) => isHangul(ch) || /[a-z]/i.test(ch));
  const base = { given, lang, hard: false, oneLetter: letters.length === 1, severalWords: /\s/.test(given) };
  const last = lastLetter(given);
  if (!last) return base;
  const korean = isHangul(last);
  const alt = korean ? dueum(last) : undefined;
  const dict = korean ? KO_WORDS : EN_WORDS;
  const used = letters.join('').toLowerCase();
  const candidates = startsFor(last).flatMap((ch) => dict.get(ch) ?? []).filter(([w]) => w.toLowerCase() !== used);
  const moveLang: Language = korean ? 'ko' : 'en';
  const found = { ...base, lang: moveLang, last, ...(alt ? { alt } : {}) };
  if (!candidates.length) return { ...found, hard: true };
  const count = (e: Entry) => followers(lastLetter(e[0]) ?? '', moveLang);
  const trap = [...candidates].sort((a, b) => count(a) - count(b));
  const trapPick = trap[0] as Entry;
  const friendly = [...candidates].sort((a, b) => count(b) - count(a)).filter((e) => e !== trapPick);
  const reply = strategy === 'trap' ? trapPick : (friendly[0] ?? trapPick);
  const other = (strategy === 'trap' ? trap.slice(1) : friendly.slice(1))[0];
  const next = lastLetter(reply[0]) ?? '';
  return { ...found, reply, ...(other ? { other: other[0] } : {}), next, hard: isHard(next, moveLang) };
}
