// Over 300 lines for now: the demo models' content for all 13 tools in both languages; it is to be split into a demo/ folder by concern.
import type { BattleInputs, FinishReason, Language, ModelSpec } from '@duet/shared';
import type { ChatRequest, ModelProvider, StreamChunk } from './provider.ts';

/** `atlas`: structured and terse. `sonnet`: warm prose with caveats and a closing question. */
type Style = 'atlas' | 'sonnet';
type Bi = Record<Language, string>;

/** What a content builder sees: the visitor's question plus a picker seeded from it. */
interface Ctx {
  lang: Language;
  style: Style;
  inputs: BattleInputs;
  text: string;
  hasImage: boolean;
  pick: <T>(items: readonly T[]) => T;
  /** `n` distinct items in a seeded order. */
  take: <T>(items: readonly T[], n: number) => T[];
}
type Builder = (c: Ctx) => string;
type ToolContent = Record<Language, Record<Style, Builder>>;

// ---------------------------------------------------------------------------------------- seeding

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny seeded generator, so answers never depend on the clock. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedOf(model: string, q: ChatRequest['context']): number {
  const inputs = Object.entries(q.inputs).sort(([a], [b]) => (a < b ? -1 : 1));
  return fnv1a(JSON.stringify([model, q.tool, q.lang, inputs, q.text, q.hasImage]));
}

// ---------------------------------------------------------------------------------- text helpers

const md = (...lines: (string | false | undefined)[]): string =>
  lines.filter((l): l is string => typeof l === 'string').join('\n');
const clip = (s: string, max = 120): string => {
  const cps = Array.from(s.replace(/\s+/g, ' ').trim());
  return cps.length > max ? `${cps.slice(0, max - 1).join('')}…` : cps.join('');
};
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const low = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
const fmt = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 2 });
const hashtag = (k: string): string => `#${k.replace(/[\s#]+/g, '')}`;
const isHangul = (ch: string): boolean => /[가-힣]/.test(ch);
/** Poem lines end in two spaces: a Markdown hard line break. */
const stanza = (lines: string[]): string => lines.map((l) => `${l}  `).join('\n');
const keywordsOf = (c: Ctx, lang: Language = c.lang): string[] =>
  c.inputs.keywords?.length ? c.inputs.keywords : [lang === 'ko' ? '오늘' : 'today'];
const listOf = (items: string[], lang: Language = 'ko'): string => {
  const q = items.map((k) => `“${k}”`);
  return lang === 'en' && q.length > 1 ? `${q.slice(0, -1).join(', ')} and ${q.at(-1)}` : q.join(', ');
};
/** Formal Korean (합니다체) sentence endings and their warmer 해요체 forms, most specific first. */
const HAEYO: [RegExp, string][] = [
  [/([많좋작같])습니다/g, '$1아요'], [/(었|졌|았|있|적|없)습니다/g, '$1어요'], [/보입니다/g, '보여요'], [/것입니다/g, '거예요'], [/입니다/g, '이에요'],
  [/합니다/g, '해요'], [/됩니다/g, '돼요'], [/갑니다/g, '가요'], [/집니다/g, '져요'], [/줍니다/g, '줘요'], [/봅니다/g, '봐요'], [/나옵니다/g, '나와요'],
  [/꿉니다/g, '꿔요'], [/웁니다/g, '워요'], [/옵니다/g, '와요'],
];
const haeyo = (s: string): string => HAEYO.reduce((t, [re, to]) => t.replace(re, to), s);

const PARTICLE = { 이: ['이', '가'], 을: ['을', '를'], 은: ['은', '는'], 으로: ['으로', '로'], 이에요: ['이에요', '예요'], 이었: ['이었', '였'] } as const;
/** The Korean particle in the form the word's last sound needs (받침 or not; ㄹ takes 로). */
function josa(word: string, p: keyof typeof PARTICLE): string {
  const last = word.trim().slice(-1);
  const code = last.charCodeAt(0) - 0xac00;
  let fin = 0;
  if (code >= 0 && code < 11172) fin = code % 28;
  else if (/[l178]$/i.test(last)) fin = 8;
  else if (/(ng|[bckmnpt036])$/i.test(word.trim())) fin = 1;
  const [withFinal, without] = PARTICLE[p];
  if (p === '으로') return fin === 0 || fin === 8 ? without : withFinal;
  return fin ? withFinal : without;
}
const jo = (word: string, p: keyof typeof PARTICLE): string => word + josa(word, p);

/** The visitor's optional note, acknowledged in each style. */
function noteLine(c: Ctx): string | false {
  if (!c.text.trim()) return false;
  const q = clip(c.text);
  if (c.style === 'atlas') return c.lang === 'ko' ? `> **추가 요청:** “${q}” — 반영했습니다.\n` : `> **Your note:** “${q}” — taken into account.\n`;
  return c.lang === 'ko' ? `말씀하신 “${q}”도 염두에 두었어요.\n` : `I also kept your note in mind: “${q}”.\n`;
}

const numbersIn = (s: string): number[] =>
  (s.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((n) => Number(n.replace(/,/g, ''))).filter((n) => Number.isFinite(n));

/** One simple calculation in the question (`12 + 7`, `3 x 4`), if there is one. */
function arithmetic(text: string): { expr: string; value: string } | undefined {
  const m = /(?<![\d.:/-])(\d+(?:\.\d+)?)\s*([+×÷*]|\s[-/xX]\s)\s*(\d+(?:\.\d+)?)(?![\d.:/-])/.exec(text.replace(/(\d),(?=\d{3})/g, '$1'));
  if (!m) return undefined;
  const a = Number(m[1]);
  const b = Number(m[3]);
  const op = (m[2] ?? '').trim();
  const value = op === '+' ? a + b : op === '-' ? a - b : op === '/' || op === '÷' ? (b === 0 ? NaN : a / b) : a * b;
  if (!Number.isFinite(value)) return undefined;
  return { expr: `${fmt(a)} ${op === '*' || /x/i.test(op) ? '×' : op} ${fmt(b)}`, value: fmt(value) };
}

const STOP = /^(what|which|where|when|that|this|with|from|have|does|there|their|about|would|could|should)$|^(무엇|어디|누구|언제|어떻게|어느)/i;
/** The longest distinct words of a question, in their original order: its likely key terms. */
function cluesOf(text: string, n = 3): string[] {
  const seen = new Set<string>();
  const words = text
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .split(/\s+/)
    .filter((w) => !(isHangul(w) && /(요|까|다|니|죠)$/.test(w)))
    .map((w) => (isHangul(w) ? w.replace(Array.from(w).length > 2 ? /(은|는|이|가|을|를|의|에서|에게|으로)$/ : /(을|를|은|의)$/, '') : w))
    .filter((w) => Array.from(w).length >= (isHangul(w) ? 1 : 4) && !STOP.test(w))
    .filter((w) => !seen.has(w.toLowerCase()) && seen.add(w.toLowerCase()));
  const keep = new Set([...words].sort((a, b) => b.length - a.length).slice(0, n));
  const out = words.filter((w) => keep.has(w));
  return out.length ? out : [clip(text, 20)];
}

// ------------------------------------------------------------------------------- word-chain game

function parseWords(s: string): Map<string, [string, string][]> {
  const map = new Map<string, [string, string][]>();
  for (const entry of s.split('|')) {
    const [word = '', def = ''] = entry.split('=');
    const first = Array.from(word)[0] ?? '';
    map.set(first, [...(map.get(first) ?? []), [word, def]]);
  }
  return map;
}

const KO_WORDS = parseWords(
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
    '용기=겁내지 않는 씩씩한 마음|통닭=통째로 튀기거나 구운 닭|마을=사람들이 모여 사는 곳|울타리=집 둘레를 막은 담',
);

const EN_WORDS = parseWords(
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

/** Final syllables few Korean words start with: ending on one is a strong move. */
const KO_HARD = '릎름듬늄슭녘쁨즘꾼껏륨';

/** 두음법칙: 력→역, 라→나, 녀→여. Undefined when the rule does not change the syllable. */
function dueum(syl: string): string | undefined {
  const code = syl.charCodeAt(0) - 0xac00;
  if (code < 0 || code >= 11172) return undefined;
  const [init, med, fin] = [Math.floor(code / 588), Math.floor((code % 588) / 28), code % 28];
  const yVowel = [2, 3, 6, 7, 12, 17, 20].includes(med);
  const next = init === 5 ? (yVowel ? 11 : 2) : init === 2 && yVowel ? 11 : init;
  return next === init ? undefined : String.fromCharCode(0xac00 + next * 588 + med * 28 + fin);
}

/** One turn of the word chain; `other` is another word that would have fitted, for a friendly aside. */
interface Move { given: string; last?: string; alt?: string | undefined; reply?: [string, string]; other?: string | undefined; next?: string; hard: boolean; oneLetter: boolean }

function playMove(c: Ctx): Move {
  const given = clip(c.text, 40);
  const letters = Array.from(given).filter((ch) => isHangul(ch) || /[a-z]/i.test(ch));
  const oneLetter = letters.length === 1;
  const lastRaw = letters.at(-1);
  if (!lastRaw) return { given, hard: false, oneLetter };
  const korean = isHangul(lastRaw);
  const last = korean ? lastRaw : lastRaw.toLowerCase();
  const dict = korean ? KO_WORDS : EN_WORDS;
  const alt = korean ? dueum(last) : undefined;
  const starting = (ch: string) => [...(dict.get(ch) ?? []), ...(korean ? (dict.get(dueum(ch) ?? '') ?? []) : [])];
  const used = letters.join('').toLowerCase();
  const candidates = starting(last).filter(([w]) => w !== used);
  if (!candidates.length) return { given, last, alt, hard: true, oneLetter };
  const [reply, other] = c.take(candidates, 2) as [[string, string], [string, string]?];
  const next = Array.from(reply[0]).at(-1) ?? '';
  return { given, last, alt, reply, other: other?.[0], next, hard: (korean ? KO_HARD : 'xzqjv').includes(next), oneLetter };
}

// ------------------------------------------------------------------------------------ tool data

const TITLES: Record<Language, readonly [string, string][]> = {
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

/** Five distinct titles with reasons, and the favourite among them. */
function titles(c: Ctx): [[string, string][], string] {
  const picks = c.take(TITLES[c.lang], 5);
  return [picks, c.pick(picks)[0]];
}

type Couplet = (k: string) => [string, string];
const LYRIC: Record<Language, { lines: Couplet[]; chorus: (t: string) => string[] }> = {
  en: {
    lines: [
      (k) => [`I found the ${k} where the evening light was thin,`, 'and held it like a secret I could not keep in.'],
      (k) => [`The ${k} kept turning in the pocket of the rain,`, 'a small and stubborn compass pointing home again.'],
      (k) => [`We wrote the ${k} in chalk along the wall`, 'and watched the weather teach it how to fall.'],
      (k) => [`I hear the ${k} humming underneath the floor,`, 'a song that knows the way back to the door.'],
      (k) => [`You said the ${k} would fade by morning’s start,`, 'but it stayed awake and settled in my heart.'],
      (k) => [`Tonight I let the ${k} learn how to fly,`, 'stitched to the blue edge of an open sky.'],
      (k) => [`I traded every ${k} for one more hour,`, 'and the hour opened slowly like a flower.'],
    ],
    chorus: (t) => [`${t}, ${t},`, 'say it soft enough to stay;', 'every word I couldn’t say', 'finds its way to you today.'],
  },
  ko: {
    lines: [
      (k) => [`${jo(k, '이')} 머물던 골목 끝에서`, '나는 오래된 노래를 다시 불러'],
      (k) => [`주머니 속 ${k} 하나 꺼내 보면`, '잊은 줄 알았던 계절이 번져'],
      (k) => [`비에 젖은 ${jo(k, '을')} 손에 쥐고`, '천천히 집으로 가는 길을 걸어'],
      (k) => [`창가에 내려앉은 ${k}처럼`, '말없이 너를 기다리는 밤'],
      (k) => [`${jo(k, '은')} 아직 거기 있을까`, '우리가 웃던 그 자리 그대로'],
      (k) => [`하늘 끝에 ${jo(k, '을')} 띄워 보내면`, '대답 대신 바람이 돌아와'],
      (k) => [`${k} 사이로 흘러간 시간`, '그 모든 순간이 빛이 되었어'],
    ],
    chorus: (t) => [`${t}, ${t}`, '작게 불러도 닿을 수 있게', '끝내 하지 못한 말들이', '오늘은 너에게 닿기를'],
  },
};

const RAP: Record<Language, { lines: Couplet[]; chorus: (t: string) => string[] }> = {
  en: {
    lines: [
      (k) => [`Started with the ${k}, now I’m running up the score,`, 'every door they closed just taught me how to knock some more.'],
      (k) => [`${cap(k)} in my pocket and a blueprint in my head,`, 'they were sleeping on my name, so I’m writing it instead.'],
      (k) => [`They talk about the ${k} like they’ve been here from the start,`, 'but the map to where I’m going was drawn inside my heart.'],
      (k) => [`Late nights with the ${k}, city humming through the walls,`, 'I don’t need a spotlight when the echo always calls.'],
      (k) => [`Flip the ${k} over, see the sweat along the back,`, 'one step at a time and I never lost the track.'],
      (k) => [`Every bar is for the ${k}, every verse is paying rent,`, 'counting every lesson like it’s money that I spent.'],
    ],
    chorus: (t) => [`${t}! Say it louder for the back,`, `${t}! We don’t fold and we don’t crack,`, 'from the bottom to the top, every beat a brand-new track,', `${t}, and we’re never looking back.`],
  },
  ko: {
    lines: [
      (k) => [`${jo(k, '으로')} 시작했지 바닥부터 한 칸씩`, '닫힌 문 앞에서도 두드렸어 한 번씩'],
      (k) => [`주머니엔 ${k}, 머릿속엔 큰 그림`, '다들 잠든 밤에도 안 멈추는 내 리듬'],
      (k) => [`다들 ${k} 얘기해 처음부터 있던 것처럼`, '난 내 길을 그려 왔지 낮에도 밤처럼'],
      (k) => [`늦은 밤 ${k}, 도시가 벽 너머로 울려`, '조명 없이도 내 목소린 더 멀리 울려'],
      (k) => [`${jo(k, '을')} 뒤집어 보면 보여 땀의 흔적`, '한 걸음씩 올라왔어 이건 내 기적'],
      (k) => [`매 마디가 ${k}, 매 벌스가 월세`, '배운 건 다 내 거야 이게 바로 내 세계'],
    ],
    chorus: (t) => [`${t}! 더 크게 외쳐 뒤까지`, `${t}! 우린 안 꺾여 끝까지`, '바닥에서 꼭대기까지 매 비트가 새 시작', `${t}, 뒤는 안 봐 이제부터 진짜 시작`],
  },
};

/** Two verses of couplets that use every keyword at least once, plus a chorus on the title. */
function verses(c: Ctx, bank: typeof LYRIC): { lang: Language; title: string; v1: string[]; chorus: string[]; v2: string[] } {
  const lang = c.inputs.language ?? c.lang;
  const kws = keywordsOf(c, lang);
  const title = c.inputs.poemTitle ?? (lang === 'ko' ? '무제' : 'Untitled');
  const need = Math.max(4, kws.length);
  const couplets = c.take(bank[lang].lines, need).map((line, i) => line(kws[i % kws.length] ?? ''));
  const half = Math.ceil(couplets.length / 2);
  return { lang, title, v1: couplets.slice(0, half).flat(), chorus: bank[lang].chorus(title), v2: couplets.slice(half).flat() };
}
const LANG_NAME: Record<Language, Bi> = { en: { en: 'English', ko: '영어' }, ko: { en: 'Korean', ko: '한국어' } };

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

/** Five titles of the asked category, those matching the genre first. */
function recommend(c: Ctx): { picks: Show[]; matched: boolean; kind: Bi } {
  const film = c.inputs.category === 'film';
  const tags = GENRE_TAGS.filter(([, re]) => re.test(c.inputs.genre ?? '')).map(([t]) => t);
  const pool = c.take(SHOWS.filter((s) => s[0] === (film ? 'film' : 'drama')), 16);
  const score = (s: Show) => tags.filter((t) => s[1].split(' ').includes(t)).length;
  const picks = [...pool].sort((a, b) => score(b) - score(a)).slice(0, 5);
  const kind = film ? { en: 'films', ko: '영화' } : { en: 'series', ko: '드라마' };
  return { picks, matched: picks.some((s) => score(s) > 0), kind };
}

interface Reel { title: string; hook: string; shots: string[]; caption: string; music: string; }
const REELS: Record<Language, ((k: string) => Reel)[]> = {
  en: [
    (k) => ({ title: `24 Hours of ${cap(k)}`, hook: `on-screen text: “I tried ${k} for a whole day. Hour 3 surprised me.”`, shots: ['Alarm goes off, quick cut to the setup', `Close-up on the ${k} detail nobody notices`, 'The messy middle, sped up 4×', 'Final reveal with a grin to camera'], caption: 'Would you last 24 hours? 👀', music: 'upbeat lo-fi' }),
    (k) => ({ title: `${cap(k)}: Expectation vs Reality`, hook: 'a split screen, the polished version on the left and the real one on the right', shots: ['Start the same action on both sides', 'The reality side hits a small disaster', 'Twist: the real version ends up better'], caption: 'Be honest, which side are you? 😂', music: 'a trending comedic sound' }),
    (k) => ({ title: `3 ${cap(k)} Mistakes Everyone Makes`, hook: `“Stop scrolling if you’ve ever done this with ${k}.”`, shots: ['Mistake 1 acted out, big red ✗', 'Mistake 2 with a ten-second fix', 'Mistake 3 as a before/after', 'Point at the caption: “save this”'], caption: 'Which one were you guilty of?', music: 'a punchy beat that hits on every cut' }),
    (k) => ({ title: `POV: Your First Time with ${cap(k)}`, hook: 'a shaky handheld shot, wide eyes, text: “nobody warned me”', shots: ['Excited prep in quick cuts', `The first try at ${k} goes slightly wrong`, 'The second try nails it, relieved look to camera'], caption: 'Everyone starts somewhere 🙌', music: 'a dramatic build-up, then the drop' }),
    (k) => ({ title: `The 10-Second ${cap(k)} Trick`, hook: 'the finished result first, then a rewind', shots: ['The finished result', 'Rewind effect back to the start', `Close-up of the one key ${k} step`, 'Snap back to the result'], caption: 'Save this for later 📌', music: 'a clean minimal beat' }),
  ],
  ko: [
    (k) => ({ title: `24시간 ${k} 챌린지`, hook: `화면 자막 “하루 종일 ${k}만 해 봤다. 3시간째에 반전이…”`, shots: ['알람이 울리고 바로 준비 장면으로 컷', `아무도 눈여겨보지 않는 ${k} 디테일 클로즈업`, '엉망인 중간 과정을 4배속으로', '카메라를 보며 씩 웃는 마지막 공개'], caption: '여러분은 24시간 버틸 수 있나요? 👀', music: '경쾌한 로파이' }),
    (k) => ({ title: `${k} 기대 vs 현실`, hook: '화면 분할: 왼쪽은 완벽한 버전, 오른쪽은 현실 버전', shots: ['같은 동작을 양쪽에서 동시에 시작', '현실 쪽에서 작은 사고 발생', '반전: 현실 버전이 오히려 더 좋게 끝남'], caption: '솔직히 여러분은 어느 쪽인가요? 😂', music: '유행하는 코믹 사운드' }),
    (k) => ({ title: `다들 하는 ${k} 실수 3가지`, hook: `“${k} 하면서 이런 적 있다면 스크롤 멈추세요”`, shots: ['실수 1을 재연하고 빨간 ✗ 표시', '실수 2와 10초 해결법', '실수 3의 전후 비교', '자막을 가리키며 “저장해 두세요”'], caption: '여러분은 몇 번이었나요?', music: '컷마다 비트가 꽂히는 음악' }),
    (k) => ({ title: `POV: ${k} 처음 해 본 날`, hook: '흔들리는 핸드헬드, 동그래진 눈, 자막 “아무도 말 안 해 줬어”', shots: ['설레는 준비 과정을 빠른 컷으로', `${k} 첫 시도에서 생긴 작은 실수`, '두 번째에 성공하고 카메라 보며 안도'], caption: '처음엔 다 그렇잖아요 🙌', music: '점점 고조되다 터지는 음악' }),
    (k) => ({ title: `10초 ${k} 꿀팁`, hook: '완성된 결과부터 보여 주고 되감기', shots: ['완성된 모습 먼저', '되감기 효과로 처음으로', `핵심 ${k} 단계 하나만 클로즈업`, '다시 완성 컷'], caption: '저장해 두고 써먹기 📌', music: '깔끔한 미니멀 비트' }),
  ],
};

function reelPlan(c: Ctx): { ideas: Reel[]; tags: string } {
  const kws = keywordsOf(c);
  const ideas = c.take(REELS[c.lang], 3).map((idea, i) => idea(kws[i % kws.length] ?? ''));
  const extra = c.lang === 'ko' ? ['#릴스', '#릴스추천', '#일상', '#꿀팁'] : ['#reels', '#reelsinstagram', '#howto', '#tips'];
  return { ideas, tags: [...kws.map(hashtag), ...extra].slice(0, 6).join(' ') };
}

const POST: Record<Language, { hooks: string[]; lines: ((k: string) => string)[]; ctas: string[]; tags: string[] }> = {
  en: {
    hooks: ['I didn’t expect to write this post, but here we are.', 'Okay, I need to talk about something I’ve been using every day.', 'Honest review time: no filter, just my experience.'],
    lines: [(k) => `What surprised me most? ${cap(k)}.`, (k) => `${cap(k)}: better than I expected, and I’m picky.`, (k) => `${cap(k)} is the part I keep coming back to.`, (k) => `If ${k} matters to you, this is worth a look.`, (k) => `${cap(k)}: I noticed the difference on day one.`],
    ctas: ['Have you tried it? Tell me in the comments 👇', 'Save this for your next shopping list and send it to a friend who needs it.', 'Link in bio if you want to take a look.'],
    tags: ['#ad', '#honestreview', '#dailyroutine', '#musthave', '#recommended', '#lifestyle', '#instadaily'],
  },
  ko: {
    hooks: ['이런 글 쓸 줄 몰랐는데, 결국 쓰게 됐어요.', '요즘 매일 쓰는 게 하나 있는데, 이건 꼭 얘기해야겠어요.', '필터 없이 솔직 후기 갑니다.'],
    lines: [(k) => `제일 놀란 건 ${jo(k, '이었')}어요.`, (k) => `${k}? 까다로운 제 기준에도 기대 이상이었어요.`, (k) => `자꾸 손이 가는 이유는 ${k} 때문이에요.`, (k) => `${jo(k, '이')} 중요한 분이라면 한번 볼 만해요.`, (k) => `첫날부터 ${k} 차이가 느껴졌어요.`],
    ctas: ['써 보신 분 있나요? 댓글로 알려 주세요 👇', '장바구니용으로 저장해 두고, 필요한 친구에게 공유해 주세요.', '궁금하다면 프로필 링크에서 확인해 보세요.'],
    tags: ['#광고', '#솔직후기', '#일상', '#추천템', '#데일리', '#꿀템', '#인스타그램'],
  },
};

function postDraft(c: Ctx): { hook: string; product: string; body: string[]; cta: string; tags: string } {
  const p = POST[c.lang];
  const kws = keywordsOf(c);
  const lines = c.take(p.lines, 5);
  const body = kws.map((k, i) => lines[i % lines.length]?.(k) ?? k);
  const tags = [p.tags[0] ?? '', ...kws.map(hashtag), ...p.tags.slice(1)].slice(0, 8).join(' ');
  const product = clip(c.text, 90);
  return { hook: c.pick(p.hooks), product: /[.!?。…]$/.test(product) ? product : `${product}.`, body, cta: c.pick(p.ctas), tags };
}

const DOCENT: Record<Language, { composition: string[]; colour: string[]; brush: string[]; question: string[] }> = {
  en: {
    composition: ['the strong diagonal running from the lower left to the upper right, pulling your eye through the scene', 'the main figure placed just off-centre, which makes the empty space around it feel deliberate', 'the low horizon, which hands most of the canvas to the sky', 'the forms stacked in a loose triangle, giving the picture a calm, stable base'],
    colour: ['warm ochres set against cool blue shadows', 'a restrained palette of earth tones with one bright accent', 'soft greens and greys that seem to hold their breath', 'deep contrasts of light and dark, almost theatrical'],
    brush: ['Look at the edges: some are crisp, others dissolve, and that tells you where the artist wanted you to linger.', 'Notice the texture: thick, visible strokes in the light areas, thinner paint in the shadows.', 'From afar the surface looks smooth, but up close you can see quick, confident marks.'],
    question: ['If you could step into this scene, where would you stand, and what would you hear?', 'What do you think happened five minutes before this moment?', 'Which colour would you change, and how would the mood shift?'],
  },
  ko: {
    composition: ['왼쪽 아래에서 오른쪽 위로 뻗은 대각선이 시선을 화면 깊숙이 끌고 갑니다', '주인공이 중앙에서 살짝 비켜나 있어 주변의 빈 공간이 의도된 것처럼 느껴집니다', '지평선을 낮게 두어 화면 대부분을 하늘에 내주었습니다', '형태들이 느슨한 삼각형으로 쌓여 그림에 안정감을 줍니다'],
    colour: ['따뜻한 황토색과 차가운 푸른 그림자의 대비', '흙빛 위주의 절제된 색에 밝은 포인트 하나', '숨을 죽인 듯한 부드러운 초록과 회색', '연극 무대처럼 강한 명암 대비'],
    brush: ['가장자리를 보세요. 어떤 곳은 또렷하고 어떤 곳은 흐려지는데, 작가가 오래 머물길 바란 곳이 바로 또렷한 쪽입니다.', '질감을 보세요. 밝은 부분은 물감이 두텁고, 그림자는 얇게 칠해졌습니다.', '멀리서는 매끈해 보여도 가까이 가면 빠르고 자신 있는 붓질이 보입니다.'],
    question: ['이 장면 안으로 들어갈 수 있다면 어디에 서서 무슨 소리를 듣게 될까요?', '이 순간의 5분 전에는 무슨 일이 있었을까요?', '색 하나를 바꾼다면 무엇을 바꾸고, 분위기는 어떻게 달라질까요?'],
  },
};

const QUADS = [
  { eq: 'x^2 - 5x + 6 = 0', a: 1, b: -5, c: 6, d: 1, r: ['3', '2'], f: '(x - 3)(x - 2) = 0' },
  { eq: '2x^2 + 3x - 2 = 0', a: 2, b: 3, c: -2, d: 25, r: ['\\frac{1}{2}', '-2'], f: '(2x - 1)(x + 2) = 0' },
  { eq: 'x^2 - 2x - 8 = 0', a: 1, b: -2, c: -8, d: 36, r: ['4', '-2'], f: '(x - 4)(x + 2) = 0' },
];
const FORMULA = '$$x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$$';
function quadSteps(c: Ctx): { q: (typeof QUADS)[number]; lines: string[]; answer: string } {
  const q = c.pick(QUADS);
  const lines = [
    `$$D = b^2 - 4ac = (${q.b})^2 - 4(${q.a})(${q.c}) = ${q.d}$$`,
    `$$x = \\frac{${-q.b} \\pm \\sqrt{${q.d}}}{${2 * q.a}} = \\frac{${-q.b} \\pm ${Math.sqrt(q.d)}}{${2 * q.a}}$$`,
  ];
  return { q, lines, answer: `$x = ${q.r[0]}$ ${c.lang === 'ko' ? '또는' : 'or'} $x = ${q.r[1]}$` };
}

interface Topic { re: RegExp; name: Bi; std: Bi; dr: Bi; cr: Bi; }
const TOPICS: Topic[] = [
  { re: /감가상각|depreciat/i, name: { en: 'depreciation', ko: '감가상각' }, std: { en: 'IAS 16 Property, Plant and Equipment', ko: 'K-IFRS 제1016호 유형자산' }, dr: { en: 'Depreciation expense', ko: '감가상각비' }, cr: { en: 'Accumulated depreciation', ko: '감가상각누계액' } },
  { re: /리스|lease/i, name: { en: 'lease accounting', ko: '리스 회계' }, std: { en: 'IFRS 16 Leases', ko: 'K-IFRS 제1116호 리스' }, dr: { en: 'Right-of-use asset', ko: '사용권자산' }, cr: { en: 'Lease liability', ko: '리스부채' } },
  { re: /재고|매출원가|inventor|cost of goods|cogs/i, name: { en: 'inventory', ko: '재고자산' }, std: { en: 'IAS 2 Inventories', ko: 'K-IFRS 제1002호 재고자산' }, dr: { en: 'Cost of goods sold', ko: '매출원가' }, cr: { en: 'Inventory', ko: '재고자산' } },
  { re: /수익|매출|외상|revenue|sales|receivable/i, name: { en: 'revenue recognition', ko: '수익 인식' }, std: { en: 'IFRS 15 Revenue from Contracts with Customers', ko: 'K-IFRS 제1115호 고객과의 계약에서 생기는 수익' }, dr: { en: 'Accounts receivable', ko: '매출채권' }, cr: { en: 'Revenue', ko: '매출' } },
];
const BASIC_TOPIC: Topic = { re: /$^/, name: { en: 'a basic transaction', ko: '일반 거래' }, std: { en: 'the Conceptual Framework for Financial Reporting', ko: '재무보고를 위한 개념체계' }, dr: { en: 'Asset or expense', ko: '자산 또는 비용' }, cr: { en: 'Cash', ko: '현금' } };

function ledger(c: Ctx): { topic: Topic; nums: number[]; amount: string; calc?: string; table: string } {
  const nums = numbersIn(c.text);
  const topic = TOPICS.find((t) => t.re.test(c.text)) ?? BASIC_TOPIC;
  let value = nums[0];
  let calc: string | undefined;
  const [cost = 0, life = 0] = [nums[0], nums.at(-1)];
  const residual = nums.length >= 3 ? (nums[1] ?? 0) : 0;
  if (topic === TOPICS[0] && nums.length >= 2 && life > 0 && life <= 100 && cost > residual) {
    value = (cost - residual) / life;
    calc = `(${fmt(cost)} − ${fmt(residual)}) ÷ ${fmt(life)} = ${fmt(value)}`;
  }
  const amount = value === undefined ? 'X' : fmt(value);
  const head = c.lang === 'ko' ? '| 계정 | 차변 | 대변 |' : '| Account | Debit | Credit |';
  const table = md(head, '| --- | ---: | ---: |', `| ${topic.dr[c.lang]} | ${amount} | |`, `| ${topic.cr[c.lang]} | | ${amount} |`);
  return { topic, nums, amount, table, ...(calc ? { calc } : {}) };
}

interface XlIntent { re: RegExp; formula: Bi; args: Record<Language, string[]>; table: Record<Language, string[][]>; result: Bi; pitfall: Bi; }
const XL: XlIntent[] = [
  {
    re: /중복|duplicate|dupe/i, formula: { en: '=COUNTIF($A$2:$A$100, A2)>1', ko: '=COUNTIF($A$2:$A$100, A2)>1' },
    args: { en: ['`$A$2:$A$100`: the whole list, locked with `$` so it stays put when you fill down', '`A2`: the value in the current row', '`>1`: TRUE when that value appears more than once'], ko: ['`$A$2:$A$100`: 전체 목록. 아래로 채워도 범위가 움직이지 않게 `$`로 고정', '`A2`: 현재 행의 값', '`>1`: 두 번 이상 나오면 TRUE'] },
    table: { en: [['Name', 'Duplicate?'], ['Kim', 'TRUE'], ['Lee', 'FALSE'], ['Kim', 'TRUE']], ko: [['이름', '중복?'], ['김민지', 'TRUE'], ['이서준', 'FALSE'], ['김민지', 'TRUE']] },
    result: { en: 'Rows 2 and 4 come out **TRUE**; use the same formula as a conditional-formatting rule to highlight them.', ko: '2행과 4행이 **TRUE**가 됩니다. 같은 수식을 조건부 서식 규칙으로 쓰면 색으로 표시됩니다.' },
    pitfall: { en: 'Trailing spaces make “Kim” and “Kim ” different values; clean them with `TRIM` first.', ko: '끝에 공백이 있으면 다른 값으로 봅니다. 먼저 `TRIM`으로 정리하세요.' },
  },
  {
    re: /찾|조회|lookup|find|match/i, formula: { en: '=XLOOKUP(D2, A2:A100, B2:B100, "Not found")', ko: '=XLOOKUP(D2, A2:A100, B2:B100, "없음")' },
    args: { en: ['`D2`: the value to look for', '`A2:A100`: where to look for it', '`B2:B100`: what to return from the same row', '`"Not found"`: shown instead of `#N/A`'], ko: ['`D2`: 찾을 값', '`A2:A100`: 찾을 범위', '`B2:B100`: 같은 행에서 돌려줄 값', '`"없음"`: `#N/A` 대신 보여 줄 문구'] },
    table: { en: [['ID', 'Price'], ['A-101', '12,000'], ['B-205', '8,500'], ['C-310', '15,000']], ko: [['코드', '가격'], ['A-101', '12,000'], ['B-205', '8,500'], ['C-310', '15,000']] },
    result: { en: 'With **B-205** in D2, the formula returns **8,500**.', ko: 'D2에 **B-205**를 넣으면 **8,500**이 나옵니다.' },
    pitfall: { en: 'XLOOKUP needs Excel 2021/365 or Google Sheets; older Excel: `=IFERROR(VLOOKUP(D2, A2:B100, 2, FALSE), "Not found")`.', ko: 'XLOOKUP은 엑셀 2021/365와 구글 시트에서 됩니다. 구버전은 `=IFERROR(VLOOKUP(D2, A2:B100, 2, FALSE), "없음")`을 쓰세요.' },
  },
  {
    re: /합계|합산|더하|sum|total|add up/i, formula: { en: '=SUMIF(A2:A100, "Apple", B2:B100)', ko: '=SUMIF(A2:A100, "사과", B2:B100)' },
    args: { en: ['`A2:A100`: the range checked against the condition', '`"Apple"`: the condition (a cell such as `D2` works too)', '`B2:B100`: the numbers to add up'], ko: ['`A2:A100`: 조건을 확인할 범위', '`"사과"`: 조건 (`D2` 같은 셀 참조도 가능)', '`B2:B100`: 더할 숫자 범위'] },
    table: { en: [['Item', 'Amount'], ['Apple', '1,200'], ['Pear', '800'], ['Apple', '500']], ko: [['품목', '금액'], ['사과', '1,200'], ['배', '800'], ['사과', '500']] },
    result: { en: 'The formula returns **1,700** (1,200 + 500).', ko: '결과는 **1,700**입니다 (1,200 + 500).' },
    pitfall: { en: 'Numbers stored as text are silently skipped; look for the small green triangle and convert them.', ko: '텍스트로 저장된 숫자는 조용히 빠집니다. 셀 구석의 초록 삼각형을 확인해 숫자로 바꾸세요.' },
  },
  {
    re: /개수|몇 ?개|몇 ?명|세는|카운트|count|how many/i, formula: { en: '=COUNTIF(B2:B100, ">=80")', ko: '=COUNTIF(B2:B100, ">=80")' },
    args: { en: ['`B2:B100`: the cells to check', '`">=80"`: the condition in quotes; with a cell, write `">="&D1`'], ko: ['`B2:B100`: 확인할 셀 범위', '`">=80"`: 따옴표 안의 조건. 셀을 쓰려면 `">="&D1`'] },
    table: { en: [['Name', 'Score'], ['Kim', '92'], ['Lee', '75'], ['Park', '81']], ko: [['이름', '점수'], ['김민지', '92'], ['이서준', '75'], ['박지호', '81']] },
    result: { en: 'The formula returns **2** (92 and 81).', ko: '결과는 **2**입니다 (92점과 81점).' },
    pitfall: { en: 'For several conditions at once, switch to `COUNTIFS`.', ko: '조건이 여러 개라면 `COUNTIFS`로 바꾸세요.' },
  },
];
const XL_IF: XlIntent = {
  re: /$^/,
  formula: { en: '=IF(B2>=60, "Pass", "Fail")', ko: '=IF(B2>=60, "합격", "불합격")' },
  args: { en: ['`B2>=60`: the test', '`"Pass"`: shown when the test is TRUE', '`"Fail"`: shown otherwise'], ko: ['`B2>=60`: 검사할 조건', '`"합격"`: 조건이 참일 때 값', '`"불합격"`: 그 밖의 경우'] },
  table: { en: [['Name', 'Score'], ['Kim', '72'], ['Lee', '55']], ko: [['이름', '점수'], ['김민지', '72'], ['이서준', '55']] },
  result: { en: 'Kim gets **Pass** and Lee gets **Fail**.', ko: '김민지는 **합격**, 이서준은 **불합격**이 됩니다.' },
  pitfall: { en: 'For more than two outcomes use `IFS` instead of nesting: `=IFS(B2>=90,"A",B2>=80,"B",TRUE,"C")`.', ko: '결과가 셋 이상이면 IF를 겹치지 말고 `IFS`를 쓰세요: `=IFS(B2>=90,"A",B2>=80,"B",TRUE,"C")`.' },
};
const xlTable = (rows: string[][]): string =>
  md('| | A | B |', '| --- | --- | --- |', ...rows.map(([a = '', b = ''], i) => `| ${i + 1} | ${a} | ${b} |`));
const codeBlock = (formula: string): string => md('```excel', formula, '```');

type Kind = 'compare' | 'how' | 'why' | 'what';
const kindOf = (t: string): Kind =>
  /\bvs\.?\b|versus|better|which|compare|차이|비교|뭐가 나|어느|어떤 게/i.test(t) ? 'compare' : /\bhow\b|steps?\b|방법|어떻게|하려면/i.test(t) ? 'how' : /\bwhy\b|reason|왜|이유/i.test(t) ? 'why' : 'what';
const ANSWERS: Record<Kind, { short: Bi; points: Record<Language, string[]> }> = {
  how: {
    short: { en: 'break it into small steps you can check, start with the one that gives feedback fastest, and adjust as you go.', ko: '확인할 수 있는 작은 단계로 나누고, 가장 빨리 결과가 보이는 단계부터 시작해 조금씩 고쳐 나가는 것입니다.' },
    points: { en: ['**Define “done”.** Write one sentence describing the result you want, so you know when to stop.', '**Start small.** Try the smallest version first; it reveals problems early and cheaply.', '**Review and repeat.** After each step keep what worked and change one thing at a time.'], ko: ['**완료 기준 정하기.** 원하는 결과를 한 문장으로 적어 두면 언제 멈출지 알 수 있습니다.', '**작게 시작하기.** 가장 작은 형태로 먼저 해 보면 문제를 일찍, 싸게 발견합니다.', '**점검하고 반복하기.** 단계마다 잘된 것은 남기고 한 번에 하나씩만 바꿉니다.'] },
  },
  why: {
    short: { en: 'usually several causes stack up; the most likely one is the explanation that fits every detail you have observed.', ko: '보통 여러 원인이 겹쳐 있고, 관찰한 모든 사실을 설명하는 원인이 가장 유력합니다.' },
    points: { en: ['**List the candidates.** Write down every plausible cause, even the unlikely ones.', '**Test against the facts.** Drop any cause that contradicts something you know for sure.', '**Find the trigger.** Ask what changed right before it started; that is often the real answer.'], ko: ['**후보 나열하기.** 가능성이 낮아 보여도 그럴듯한 원인을 모두 적습니다.', '**사실과 대조하기.** 확실히 아는 사실과 어긋나는 원인은 지웁니다.', '**계기 찾기.** 시작되기 직전에 무엇이 바뀌었는지 물어보면 답이 보일 때가 많습니다.'] },
  },
  compare: {
    short: { en: 'neither option wins in general; pick the one criterion that matters most to you, then check the others are acceptable.', ko: '어느 쪽이 항상 낫지는 않습니다. 가장 중요한 기준 하나로 고르고, 나머지 기준은 괜찮은지만 확인하세요.' },
    points: { en: ['**Cost:** the total over a year, not just the upfront price.', '**Fit:** which option matches how you will actually use it.', '**Risk:** what happens if you choose wrong, and how easily you can switch.'], ko: ['**비용:** 처음 가격이 아니라 1년 동안의 총비용.', '**적합성:** 실제로 어떻게 쓸지에 더 맞는 쪽.', '**위험:** 잘못 골랐을 때의 손해와 바꾸기 쉬운 정도.'] },
  },
  what: {
    short: { en: 'it comes down to three things: what it is, how it works, and when it matters.', ko: '무엇인지, 어떻게 작동하는지, 언제 중요한지 세 가지로 정리됩니다.' },
    points: { en: ['**What it is:** a plain definition in everyday words.', '**How it works:** the mechanism behind it, one step at a time.', '**When it matters:** the situations where knowing this changes a decision.'], ko: ['**정의:** 일상 언어로 쓴 한 줄 정의.', '**작동 방식:** 그 뒤에 있는 원리를 한 단계씩.', '**중요한 때:** 이걸 알면 결정이 달라지는 상황.'] },
  },
};

// ------------------------------------------------------------------------------------- builders

const CONTENT: Record<string, ToolContent> = {
  'title-academy': {
    en: {
      atlas: (c) => {
        const [picks, best] = titles(c);
        return md('## 5 Titles for Your Photo', c.hasImage ? 'Built around the photo you attached: its mood, framing and main subject.\n' : 'No photo came through, so these titles fit a typical snapshot.\n', noteLine(c),
          ...picks.map(([t, why], i) => `${i + 1}. **“${t}”**: ${why}.`), '', '### Top pick', `**“${best}”**: short, punchy, and it works without context. Use it as the caption and let the photo do the rest.`, '',
          '**Tip:** add one emoji that matches the strongest colour in the photo.');
      },
      sonnet: (c) => {
        const [picks, best] = titles(c);
        return md(`What a fun photo to title! ${c.hasImage ? 'I looked at the picture you attached and tried to capture both what is in it and how the moment feels.' : 'The photo didn’t come through, so I wrote titles that suit most everyday snapshots.'} Here are five, each with a slightly different kind of humour:\n`, noteLine(c),
          ...picks.map(([t, why], i) => `${i + 1}. **“${t}”** — ${why}.`), '',
          `If I had to choose, I’d go with **“${best}”**. It has the lightest touch: people get the joke in a second, and it feels affectionate rather than mocking. Humour depends a lot on the audience, though, and a title that lands in a group chat can fall flat on a public post.`, '',
          'Would you like a few more in a specific tone, say dry, wholesome or dramatic?');
      },
    },
    ko: {
      atlas: (c) => {
        const [picks, best] = titles(c);
        return md('## 사진 제목 5선', c.hasImage ? '첨부한 사진의 분위기, 구도, 주인공을 기준으로 지었습니다.\n' : '사진이 첨부되지 않아 일상 사진에 두루 어울리는 제목으로 지었습니다.\n', noteLine(c),
          ...picks.map(([t, why], i) => `${i + 1}. **“${t}”**: ${why}.`), '', '### 최종 추천', `**“${best}”**: 짧고 바로 웃음이 나며 설명 없이도 통합니다. 캡션으로 쓰고 나머지는 사진에 맡기세요.`, '',
          '**팁:** 사진에서 가장 눈에 띄는 색과 어울리는 이모지 하나를 곁들이면 더 살아납니다.');
      },
      sonnet: (c) => {
        const [picks, best] = titles(c);
        return md(`제목 짓기 좋은 사진이네요! ${c.hasImage ? '첨부해 주신 사진을 보면서 담긴 장면과 그 순간의 기분을 함께 살려 보려고 했어요.' : '사진이 보이지 않아서, 어떤 일상 사진에도 어울릴 만한 제목으로 골라 봤어요.'} 웃음의 결이 조금씩 다른 다섯 가지예요.\n`, noteLine(c),
          ...picks.map(([t, why], i) => `${i + 1}. **“${t}”** — ${why}.`), '',
          `제 원픽은 **“${best}”**${josa(best, '이에요')}. 한눈에 웃음이 나면서도 놀리는 느낌 없이 다정해서 좋아요. 다만 유머는 보는 사람에 따라 달라서, 단톡방에서 빵 터지는 제목이 공개 게시물에서는 밋밋할 수도 있어요.`, '',
          '조금 더 담백한 톤이나 더 과장된 톤으로도 지어 볼까요?');
      },
    },
  },
  makeLyrics: {
    en: {
      atlas: (c) => {
        const v = verses(c, LYRIC);
        return md(`## ${v.title}`, `*${c.inputs.genre ?? 'Free verse'} · written in ${LANG_NAME[v.lang].en}*\n`, noteLine(c), '### Verse 1', stanza(v.v1), '', '### Chorus', stanza(v.chorus), '', '### Verse 2', stanza(v.v2), '',
          '| Check | Result |', '| --- | --- |', '| Title on the first line | ✅ |', `| Keywords used | ${keywordsOf(c).join(', ')} ✅ |`, '| Structure | Verse · Chorus · Verse, rhymed couplets |');
      },
      sonnet: (c) => {
        const v = verses(c, LYRIC);
        return md(`Here’s a piece built around “${v.title}”. I gave each keyword (${listOf(keywordsOf(c), 'en')}) its own image, so none of them feels tacked on.\n`, noteLine(c), `**${v.title}**\n`, stanza(v.v1), '', stanza(v.chorus.map((l) => `*${l}*`)), '', stanza(v.v2), '',
          `${c.inputs.genre ? `I aimed for a ${c.inputs.genre} feel, keeping the lines short enough to breathe.` : 'With no genre set, I wrote it as free verse with loose rhymes.'} The chorus repeats the title so it can work as a song hook, but it also reads as a poem if you drop the repetition.`, '',
          'Would you like me to make it darker, lighter, or tighter for singing?');
      },
    },
    ko: {
      atlas: (c) => {
        const v = verses(c, LYRIC);
        return md(`## ${v.title}`, `*장르: ${c.inputs.genre ?? '자유시'} · 쓰는 언어: ${LANG_NAME[v.lang].ko}*\n`, noteLine(c), '### 1절', stanza(v.v1), '', '### 후렴', stanza(v.chorus), '', '### 2절', stanza(v.v2), '',
          '| 점검 항목 | 결과 |', '| --- | --- |', '| 제목을 첫 줄에 | ✅ |', `| 키워드 사용 | ${keywordsOf(c).join(', ')} ✅ |`, '| 구성 | 1절 · 후렴 · 2절, 두 줄씩 운율 |');
      },
      sonnet: (c) => {
        const v = verses(c, LYRIC);
        return md(`제목은 “${v.title}”, 키워드는 ${listOf(keywordsOf(c))}. 이 재료로 한 편 써 봤어요. 키워드마다 장면 하나씩을 맡겨서 억지로 끼워 넣은 느낌이 들지 않게 했어요.\n`, noteLine(c), `**${v.title}**\n`, stanza(v.v1), '', stanza(v.chorus.map((l) => `*${l}*`)), '', stanza(v.v2), '',
          `${c.inputs.genre ? `${c.inputs.genre} 분위기를 살려 숨 쉴 틈이 있게 행을 짧게 끊었어요.` : '장르가 정해지지 않아서 느슨한 운율의 자유시로 썼어요.'} 후렴에서 제목을 되풀이해 노래로 불러도 좋고, 반복을 빼면 시로도 읽혀요.`, '',
          '조금 더 어둡게, 더 밝게, 혹은 부르기 쉽게 다듬어 볼까요?');
      },
    },
  },
  'quiz-solving': {
    en: {
      atlas: (c) => {
        const a = arithmetic(c.text);
        return md('## Quiz Breakdown', `**Question:** “${clip(c.text, 200)}”\n`, '### Step by step', '1. **What is asked:** pin down the form of the answer: a name, a number or a choice.', `2. **Key clues:** ${listOf(cluesOf(c.text), 'en')}.`,
          `3. **Reasoning:** ${a ? `the core of the question is a calculation: ${a.expr} = ${a.value}.` : 'test each candidate answer against every clue and drop any that contradicts even one.'}`, '4. **Check:** re-read the question with the answer plugged in; every clue must still hold.', '',
          '| Step | Status |', '| --- | --- |', `| Clues found | ${cluesOf(c.text).length} |`, `| Calculation | ${a ? 'verified' : 'none needed'} |`, '',
          a ? `**Answer: ${a.value}**` : '**Answer: the method is above; as a demo, this model does not look facts up, so a live model would name the answer here.**');
      },
      sonnet: (c) => {
        const a = arithmetic(c.text);
        const [first, second] = cluesOf(c.text);
        return md(`Let’s work through this one together. The question asks: “${clip(c.text, 200)}”\n`,
          `The words that carry the most weight here are “${first}”${second ? ` and “${second}”` : ''}. Quiz questions usually hide the answer in exactly these details, so it helps to ask what each one rules out before reaching for an answer.\n`,
          a ? `Underneath the wording there is a calculation: ${a.expr} = ${a.value}. I double-checked it by working backwards, and it holds.\n` : 'I’d start by listing the answers that come to mind, then cross off any that clash with even one clue. Whatever survives every clue is almost always right.\n',
          'One honest caveat: quiz questions sometimes contain a trick in the wording (a “not”, or a date range), so it’s worth reading the question one more time before you lock in.\n',
          a ? `**Answer: ${a.value}**` : '**Answer: as a demo model I can show the reasoning but can’t look the fact up; a live model would commit to one here.**', '',
          'Do you have answer options? If you share them, I can walk through which ones the clues rule out.');
      },
    },
    ko: {
      atlas: (c) => {
        const a = arithmetic(c.text);
        return md('## 퀴즈 풀이', `**문제:** “${clip(c.text, 200)}”\n`, '### 단계별 풀이', '1. **묻는 것:** 답이 이름인지, 숫자인지, 보기 중 하나인지부터 정합니다.', `2. **핵심 단서:** ${listOf(cluesOf(c.text))}.`,
          `3. **추론:** ${a ? `핵심은 계산입니다: ${a.expr} = ${a.value}.` : '후보 답을 단서 하나하나에 대 보고, 하나라도 어긋나면 지웁니다.'}`, '4. **검산:** 답을 넣고 문제를 다시 읽어 모든 단서가 맞는지 확인합니다.', '',
          '| 단계 | 상태 |', '| --- | --- |', `| 찾은 단서 | ${cluesOf(c.text).length}개 |`, `| 계산 | ${a ? '검산 완료' : '필요 없음'} |`, '',
          a ? `**정답: ${a.value}**` : '**정답: 풀이 방법은 위와 같습니다. 데모 모델은 사실을 찾아보지 못하므로, 실제 모델이라면 여기서 답을 밝힙니다.**');
      },
      sonnet: (c) => {
        const a = arithmetic(c.text);
        const [first, second] = cluesOf(c.text);
        return md(`같이 풀어 봐요. 문제는 이거예요: “${clip(c.text, 200)}”\n`,
          `여기서 가장 무게가 실린 말은 “${first}”${second ? `, 그리고 “${second}”` : ''}${josa(second ?? first ?? '', '이에요')}. 퀴즈는 대개 이런 디테일 속에 답을 숨겨 두니까, 답을 떠올리기 전에 각 단서가 무엇을 지워 주는지 먼저 보면 좋아요.\n`,
          a ? `문장 아래에는 계산이 하나 있어요: ${a.expr} = ${a.value}. 거꾸로 다시 계산해 봐도 맞아요.\n` : '떠오르는 후보를 적어 두고, 단서 하나라도 어긋나는 것을 지워 보세요. 모든 단서를 통과한 답이 거의 늘 정답이에요.\n',
          '솔직히 덧붙이면, 퀴즈에는 “아닌 것”이나 기간 같은 함정이 숨어 있을 때가 있어서 답을 정하기 전에 문제를 한 번 더 읽어 보는 게 좋아요.\n',
          a ? `**정답: ${a.value}**` : '**정답: 데모 모델이라 풀이 과정만 보여 드릴 수 있어요. 실제 모델이라면 여기서 답을 하나로 정해요.**', '',
          '보기가 있다면 알려 주실래요? 단서로 어떤 보기가 지워지는지 함께 볼게요.');
      },
    },
  },
  'game-ending-word': {
    en: {
      atlas: (c) => {
        const m = playMove(c);
        if (!m.last) return md('## Word Chain', `I couldn’t find a letter to chain from in “${m.given}”.`, '', '**Your turn:** send one word made of letters and I’ll reply.');
        if (!m.reply) return md('## Word Chain', `**Your word:** ${m.given}`, '', `I have no word starting with “${m.last}” in my list, so **you win this round** 🎉`, '', 'Start a new chain with any word.');
        return md(`**${m.reply[0]}**`, '', `- **Meaning:** ${m.reply[1]}.`, `- **Chain:** ${m.given} → ${m.reply[0]} (linked on “${m.last}”)`,
          `- **Next letter:** “${m.next}”: ${m.hard ? 'a tough letter to follow' : 'plenty of words start with it, so expect a quick comeback'}.`,
          m.oneLetter ? '- **Rule check:** one-letter words normally don’t count, but I’ll allow it this time.' : false, '',
          '### Rules recap', '1. Start with the last letter of the previous word.', '2. No repeats, no one-letter words, no proper nouns.', '',
          `**Your turn!** Give me a word starting with “${m.next}”.`);
      },
      sonnet: (c) => {
        const m = playMove(c);
        if (!m.last) return md(`Hmm, I couldn’t find a letter to build on in “${m.given}”. Could you send a single word spelled with letters? I’m ready when you are.`);
        if (!m.reply) return md(`You got me! I searched my word list for something starting with “${m.last}” and came up empty, so this round is yours. 🎉`, '', 'Shall we start a fresh chain? Throw me any word you like.');
        return md(`**${m.reply[0]}**! That’s ${m.reply[1]}.`, '', `Your “${m.given}” ends in “${m.last}”, so I picked up right there.${m.other ? ` I was tempted by “${m.other}” too, but I’m saving it for later.` : ''}${m.oneLetter ? ' (Strictly speaking one-letter words don’t count, but I didn’t want to stop the game over it.)' : ''}`,
          '', `Now the chain ends on “${m.next}”. ${m.hard ? 'I’ll admit that one is a little mean; words starting with it are rare, so take your time.' : 'There are plenty of words starting with it, so I suspect you’ll have an answer in seconds.'}`, '',
          'Your turn! What’s your word?');
      },
    },
    ko: {
      atlas: (c) => {
        const m = playMove(c);
        if (!m.last) return md('## 끝말잇기', `“${m.given}”에서 이어 갈 글자를 찾지 못했습니다.`, '', '**차례:** 글자로 된 단어 하나를 보내 주세요.');
        if (!m.reply) return md('## 끝말잇기', `**상대 단어:** ${m.given}`, '', `‘${m.last}’${m.alt ? `(두음법칙: ‘${m.alt}’)` : ''}${josa(m.alt ?? m.last, '으로')} 시작하는 단어를 찾지 못했습니다. **이번 판은 당신의 승리입니다** 🎉`, '', '새 단어로 다시 시작해 볼까요?');
        return md(`**${m.reply[0]}**`, '', `- **뜻:** ${m.reply[1]}`, `- **연결:** ${m.given} → ${m.reply[0]} (‘${m.last}’${m.alt && m.reply[0].startsWith(m.alt) ? ` → ‘${m.alt}’, 두음법칙` : ''})`,
          `- **다음 글자:** ‘${m.next}’: ${m.hard ? '이어 갈 단어가 거의 없는 글자입니다' : '이어 갈 단어는 있지만 금방 떠오르진 않을 겁니다'}`,
          m.oneLetter ? '- **규칙 확인:** 한 글자 단어는 원래 안 되지만 이번만 이어 가겠습니다.' : false, '',
          '### 규칙 요약', '1. 앞 단어의 마지막 글자로 시작합니다 (두음법칙 허용).', '2. 나온 단어 반복, 한 글자 단어, 고유 명사는 안 됩니다.', '',
          `**당신 차례입니다!** ‘${m.next}’${josa(m.next ?? '', '으로')} 시작하는 단어를 주세요.`);
      },
      sonnet: (c) => {
        const m = playMove(c);
        if (!m.last) return md(`음, “${m.given}”에서는 이어 갈 글자를 찾지 못했어요. 글자로 된 단어 하나를 다시 보내 주실래요? 기다릴게요.`);
        if (!m.reply) return md(`졌어요! ‘${m.last}’${m.alt ? `(두음법칙으로 ‘${m.alt}’까지)` : ''}${josa(m.alt ?? m.last, '으로')} 시작하는 단어를 아무리 찾아도 안 떠오르네요. 이번 판은 당신 승리예요. 🎉`, '', '새 단어로 한 판 더 할까요?');
        return md(`제 단어는 **${m.reply[0]}**! ${jo(m.reply[0], '은')} ${jo(m.reply[1], '을')} 말해요.`, '', `“${m.given}”의 끝 글자 ‘${m.last}’${m.alt && m.reply[0].startsWith(m.alt) ? `${josa(m.last, '을')} 두음법칙으로 ‘${m.alt}’${josa(m.alt, '으로')} 바꿔서` : '에서'} 바로 이어 받았어요.${m.other ? ` ‘${m.other}’도 떠올랐지만 그건 아껴 둘게요.` : ''}${m.oneLetter ? ' (엄밀히 말하면 한 글자 단어는 안 되지만, 게임을 멈추고 싶지 않아서 넘어갈게요.)' : ''}`,
          '', `이제 끝 글자는 ‘${m.next}’${josa(m.next ?? '', '이에요')}. ${m.hard ? '솔직히 조금 얄궂은 글자라서 이어 갈 단어가 많지 않을 거예요. 천천히 생각해 보세요.' : '이어 갈 단어가 꽤 있으니 금방 떠오르실 거예요.'}`, '',
          '이제 당신 차례예요! 어떤 단어로 받으실래요?');
      },
    },
  },
  'netflix-recommend': {
    en: {
      atlas: (c) => {
        const r = recommend(c);
        const first = r.picks[0];
        return md(`## 5 ${cap(r.kind.en)} for You${c.inputs.genre ? `: ${c.inputs.genre}` : ''}`, !r.matched && c.inputs.genre ? `Closest matches to “${c.inputs.genre}”:\n` : '', noteLine(c),
          '| # | Title | Year | Why it fits |', '| --- | --- | --- | --- |', ...r.picks.map((s, i) => `| ${i + 1} | **${s[3]}** | ${s[4]} | ${cap(s[6])} |`), '',
          first ? `**Watch first:** **${first[3]}**. It is the strongest match${c.inputs.genre ? ` for ${c.inputs.genre}` : ''} and hooks you ${c.inputs.category === 'film' ? 'within the first ten minutes' : 'by the end of episode one'}.` : false, '',
          '**Note:** the catalog differs by country, so check availability in your app.');
      },
      sonnet: (c) => {
        const r = recommend(c);
        const first = r.picks[0];
        return md(`If you’re in the mood for ${c.inputs.genre ? `${c.inputs.genre} ` : ''}${r.kind.en}, here are five I think you’d enjoy: a mix of well-known picks and a couple you might have missed.\n`, noteLine(c),
          ...r.picks.map((s, i) => `${i + 1}. **${s[3]}** (${s[4]}): ${s[6]}.`), '',
          first ? `If you only watch one, start with **${first[3]}**. It sets its tone quickly, so you’ll know within an hour whether it’s for you.` : '', '',
          'A small caveat: Netflix’s catalog varies by country, and a title or two may not be available where you are.', '',
          'Would you like something lighter or darker, or picks similar to a show you already loved?');
      },
    },
    ko: {
      atlas: (c) => {
        const r = recommend(c);
        const first = r.picks[0];
        return md(`## 추천 ${r.kind.ko} 5편${c.inputs.genre ? `: ${c.inputs.genre}` : ''}`, !r.matched && c.inputs.genre ? `“${c.inputs.genre}”에 가장 가까운 작품입니다.\n` : '', noteLine(c),
          '| # | 제목 | 연도 | 추천 이유 |', '| --- | --- | --- | --- |', ...r.picks.map((s, i) => `| ${i + 1} | **${s[2]}** | ${s[4]} | ${s[5]} |`), '',
          first ? `**먼저 볼 작품:** **${first[2]}**. 취향${c.inputs.genre ? `(${c.inputs.genre})` : ''}에 가장 잘 맞고 ${c.inputs.category === 'film' ? '첫 장면' : '첫 회'}부터 몰입됩니다.` : false, '',
          '**참고:** 국가별로 서비스 작품이 다르니 앱에서 확인하세요.');
      },
      sonnet: (c) => {
        const r = recommend(c);
        const first = r.picks[0];
        return md(`${c.inputs.genre ? `${c.inputs.genre} ` : ''}${r.kind.ko} 보고 싶은 날이라면, 이 다섯 편을 권해 드리고 싶어요. 잘 알려진 작품과 놓치기 쉬운 작품을 섞어 봤어요.\n`, noteLine(c),
          ...r.picks.map((s, i) => `${i + 1}. **${s[2]}** (${s[4]}): ${s[5]}.`), '',
          first ? `딱 하나만 고르신다면 **${first[2]}**${josa(first[2], '으로')} 시작해 보세요. 초반에 분위기가 잡혀서, 한 시간 안에 취향인지 알 수 있어요.` : '', '',
          '다만 넷플릭스 작품 목록은 나라마다 달라서, 한두 편은 지금 계신 곳에서 안 보일 수도 있어요.', '',
          '더 가볍거나 더 어두운 작품, 혹은 재밌게 본 작품과 비슷한 걸 찾아 드릴까요?');
      },
    },
  },
  'instagram-reels-idea': {
    en: {
      atlas: (c) => {
        const p = reelPlan(c);
        return md(`## 3 Reel Ideas: ${keywordsOf(c).join(' · ')}`, noteLine(c), ...p.ideas.flatMap((r, i) => [
          `### ${i + 1}. ${r.title}`, `- **Hook (0–2s):** ${cap(r.hook)}`, `- **Shots:** ${r.shots.join(' → ')}`, `- **Caption:** “${r.caption}”`, `- **Music:** ${cap(r.music)}`, '']),
          `**Hashtags:** ${p.tags}`, '', '**Tip:** shoot all close-ups in one go, then the wide shots; it halves your filming time.');
      },
      sonnet: (c) => {
        const p = reelPlan(c);
        return md(`Here are three reel ideas around ${listOf(keywordsOf(c), 'en')}. I leaned toward concepts you can shoot with just a phone, because a simple idea filmed well usually beats an ambitious one filmed in a rush.\n`, noteLine(c),
          ...p.ideas.flatMap((r, i) => [`**${i + 1}. ${r.title}**`, `Open with ${r.hook}${/[.!?]”?$/.test(r.hook) ? '' : '.'} Then: ${r.shots.map(low).join(', then ')}. Caption it “${r.caption}” and set it to ${r.music}.`, '']),
          `Hashtags that suit all three: ${p.tags}`, '', `My favourite is the first one, since the hook creates a question viewers want answered. Which feels most like your account’s voice? I can write a full script for it.`);
      },
    },
    ko: {
      atlas: (c) => {
        const p = reelPlan(c);
        return md(`## 릴스 아이디어 3선: ${keywordsOf(c).join(' · ')}`, noteLine(c), ...p.ideas.flatMap((r, i) => [
          `### ${i + 1}. ${r.title}`, `- **훅 (0~2초):** ${r.hook}`, `- **장면:** ${r.shots.join(' → ')}`, `- **자막:** “${r.caption}”`, `- **음악:** ${r.music}`, '']),
          `**해시태그:** ${p.tags}`, '', '**팁:** 클로즈업을 한 번에 몰아 찍고 와이드 샷을 찍으면 촬영 시간이 절반으로 줄어듭니다.');
      },
      sonnet: (c) => {
        const p = reelPlan(c);
        return md(`키워드 ${listOf(keywordsOf(c))}에 맞춰 릴스 아이디어 세 가지를 골라 봤어요. 휴대폰 하나로 찍을 수 있는 것 위주로 담았어요. 거창한 기획을 급하게 찍는 것보다 단순한 아이디어를 잘 찍는 쪽이 대개 반응이 좋거든요.\n`, noteLine(c),
          ...p.ideas.flatMap((r, i) => [`**${i + 1}. ${r.title}**`, `시작은 ${r.hook}. 이어서 ${r.shots.join(', ')} 순서로 보여 주세요. 자막은 “${r.caption}”, 음악은 ${r.music} 느낌이 잘 어울려요.`, '']),
          `세 아이디어에 두루 맞는 해시태그: ${p.tags}`, '', '저는 첫 번째가 제일 좋아요. 훅이 궁금증을 만들어서 끝까지 보게 하거든요. 어느 쪽이 계정 분위기에 가장 맞나요? 고르시면 대본까지 써 드릴게요.');
      },
    },
  },
  'math-solve': {
    en: {
      atlas: (c) => {
        const s = quadSteps(c);
        return md('## Solution', c.hasImage ? 'Photo received. This demo model can’t read images, so here is a typical problem of this kind, solved step by step.\n' : 'No photo came through, so here is a typical problem, solved step by step.\n', noteLine(c),
          '### 1. Problem', `$$${s.q.eq}$$`, `Here $a = ${s.q.a}$, $b = ${s.q.b}$, $c = ${s.q.c}$.`, '', '### 2. Quadratic formula', FORMULA, '', '### 3. Substitute', ...s.lines, '', '### 4. Check',
          `Factoring gives $${s.q.f}$, the same roots. ✅`, '', `**Final answer: ${s.answer}**`);
      },
      sonnet: (c) => {
        const s = quadSteps(c);
        return md(`${c.hasImage ? 'Thanks for the photo! I should be upfront: as a demo model I can’t actually read images, so let me walk you through a typical problem of this kind instead.' : 'The photo didn’t come through, so let me walk you through a typical problem instead.'} The same steps carry over to most quadratics.\n`, noteLine(c),
          `Say the equation is $${s.q.eq}$. The most reliable tool here is the quadratic formula:`, '', FORMULA, '',
          `With $a = ${s.q.a}$, $b = ${s.q.b}$ and $c = ${s.q.c}$, the first thing to compute is the discriminant, which tells us how many real roots to expect:`, '', s.lines[0] ?? '', '',
          'It’s positive (and a perfect square), so there are two neat real roots:', '', s.lines[1] ?? '', '',
          `It’s always worth checking: factoring gives $${s.q.f}$, which agrees.`, '', `**Final answer: ${s.answer}**`, '',
          'If your photo shows a different problem, could you type the equation? I’d be glad to solve that exact one.');
      },
    },
    ko: {
      atlas: (c) => {
        const s = quadSteps(c);
        return md('## 풀이', c.hasImage ? '사진을 받았습니다. 데모 모델은 이미지를 읽지 못하므로, 같은 유형의 대표 문제를 단계별로 풉니다.\n' : '사진이 첨부되지 않아 대표 문제를 단계별로 풉니다.\n', noteLine(c),
          '### 1. 문제', `$$${s.q.eq}$$`, `여기서 $a = ${s.q.a}$, $b = ${s.q.b}$, $c = ${s.q.c}$입니다.`, '', '### 2. 근의 공식', FORMULA, '', '### 3. 대입', ...s.lines, '', '### 4. 검산',
          `인수분해하면 $${s.q.f}$이므로 같은 근이 나옵니다. ✅`, '', `**최종 답: ${s.answer}**`);
      },
      sonnet: (c) => {
        const s = quadSteps(c);
        return md(`${c.hasImage ? '사진 고마워요! 먼저 솔직히 말씀드리면, 데모 모델이라 이미지를 직접 읽지는 못해요. 대신 이런 유형의 대표 문제를 함께 풀어 볼게요.' : '사진이 보이지 않아서 대표 문제로 함께 풀어 볼게요.'} 대부분의 이차방정식에 같은 방법이 통해요.\n`, noteLine(c),
          `방정식 $${s.q.eq}$을 예로 들어 볼게요. 가장 믿을 만한 도구는 근의 공식이에요.`, '', FORMULA, '',
          `$a = ${s.q.a}$, $b = ${s.q.b}$, $c = ${s.q.c}$이니 먼저 판별식을 구하면 실근이 몇 개인지 알 수 있어요.`, '', s.lines[0] ?? '', '',
          '양수이고 완전제곱수라서 깔끔한 실근이 두 개 나와요.', '', s.lines[1] ?? '', '',
          `검산도 해 봐요. 인수분해하면 $${s.q.f}$이 되어 답이 일치해요.`, '', `**최종 답: ${s.answer}**`, '',
          '사진 속 문제가 다르다면 식을 직접 적어 주실래요? 그 문제로 다시 풀어 드릴게요.');
      },
    },
  },
  'influencer-writing': {
    en: {
      atlas: (c) => {
        const d = postDraft(c);
        return md('## Instagram Post Draft', `**Hook:** ${d.hook}`, '', '**Body:**', `Two weeks ago I started trying this: ${d.product}`, ...d.body, 'It’s not perfect (nothing is), but it slipped into my routine without any effort.', '',
          `**CTA:** ${d.cta}`, '', `**Hashtags:** ${d.tags}`, '', '### Why it works', '1. Opens with a personal moment, not a sales pitch.', `2. Every keyword appears naturally: ${keywordsOf(c).join(', ')}.`, '3. The **#ad** disclosure comes first, as platforms require.');
      },
      sonnet: (c) => {
        const d = postDraft(c);
        return md('Here’s a draft that should read like a recommendation from a friend rather than an ad:', '', `> (Ad) ${d.hook}`, '>', `> Two weeks ago I started trying this: ${d.product}`, '>', ...d.body.map((l) => `> ${l}`), '>',
          '> It’s not perfect (nothing is), but it slipped into my routine without any effort.', '>', `> ${d.cta}`, '>', `> ${d.tags}`, '',
          `I kept the disclosure up front, both because it’s required and because followers trust it more. Each of your keywords (${listOf(keywordsOf(c), 'en')}) gets its own line, so none of them feels forced.`, '',
          'One suggestion: if you have a real detail from your own experience, a small imperfection or a funny moment, swap it in; that is what makes posts like this feel genuine. Want a shorter version for Stories too?');
      },
    },
    ko: {
      atlas: (c) => {
        const d = postDraft(c);
        return md('## 인스타그램 게시글 초안', `**훅:** ${d.hook}`, '', '**본문:**', `2주 전부터 써 보고 있는 것: ${d.product}`, ...d.body, '완벽하진 않지만(완벽한 건 없죠), 애쓰지 않아도 일상에 자연스럽게 들어왔어요.', '',
          `**행동 유도:** ${d.cta}`, '', `**해시태그:** ${d.tags}`, '', '### 이렇게 쓴 이유', '1. 판매 문구가 아니라 개인적인 순간으로 시작합니다.', `2. 키워드를 모두 자연스럽게 넣었습니다: ${keywordsOf(c).join(', ')}.`, '3. 플랫폼 규정대로 **#광고** 표시를 맨 앞에 두었습니다.');
      },
      sonnet: (c) => {
        const d = postDraft(c);
        return md('광고보다는 친구의 추천처럼 읽히도록 써 봤어요.', '', `> (광고) ${d.hook}`, '>', `> 2주 전부터 써 보고 있는 것: ${d.product}`, '>', ...d.body.map((l) => `> ${l}`), '>',
          '> 완벽하진 않지만(완벽한 건 없죠), 애쓰지 않아도 일상에 자연스럽게 들어왔어요.', '>', `> ${d.cta}`, '>', `> ${d.tags}`, '',
          `광고 표시는 맨 앞에 두었어요. 규정이기도 하지만, 숨기지 않을 때 팔로워가 더 믿어 주거든요. 키워드(${listOf(keywordsOf(c))})는 한 줄씩 맡겨서 억지스럽지 않게 했어요.`, '',
          '하나 제안하자면, 직접 겪은 작은 아쉬움이나 웃긴 순간 같은 진짜 디테일이 있다면 넣어 보세요. 그게 이런 글을 진짜처럼 만들어요. 스토리용 짧은 버전도 써 드릴까요?');
      },
    },
  },
  docent: {
    en: {
      atlas: (c) => {
        const d = DOCENT.en;
        return md('## Docent Talk (about 3 minutes)', c.hasImage ? 'Thank you for the image. A demo model can’t identify the exact work, so I’ll guide your looking rather than name an artist.\n' : 'No image came through, so here is a guide that works in front of most paintings.\n', noteLine(c),
          '### 1. First impression', 'Give it five quiet seconds. Where does your eye land first? That spot is rarely an accident.', '', '### 2. Composition', `Notice ${c.pick(d.composition)}.`, '',
          '### 3. Colour and light', `Colour first: ${c.pick(d.colour)}. It sets the mood before any detail does. Find the brightest point; it usually marks the story’s centre.`, '', '### 4. Brushwork', c.pick(d.brush), '',
          '### 5. Context', 'Paintings built like this often come from periods when artists were rethinking light and everyday subjects. Treat that as a guess, not an attribution.', '', `**A question for you:** ${c.pick(d.question)}`);
      },
      sonnet: (c) => {
        const d = DOCENT.en;
        return md(`Let’s stand in front of this painting together for a moment. ${c.hasImage ? 'I should say first that, as a demo model, I can’t identify the exact work from your image, so rather than guess at a name I’ll guide how we look.' : 'Your image didn’t come through, so I’ll describe a way of looking that works in front of almost any painting.'}\n`, noteLine(c),
          `Start with the arrangement. Notice ${c.pick(d.composition)}. Painters plan this long before the first brushstroke, and it quietly decides where you feel you are standing.\n`,
          `Then the colour: ${c.pick(d.colour)}. Colour reaches us before meaning does, which is why a picture can feel tense or tender before we know what it shows. ${c.pick(d.brush)}\n`,
          'As for context, works made this way often belong to moments when artists were rethinking light and everyday subjects, though I’d hold that loosely without a label on the wall.\n',
          `I’ll leave you with a question: ${low(c.pick(d.question))}`);
      },
    },
    ko: {
      atlas: (c) => {
        const d = DOCENT.ko;
        return md('## 도슨트 해설 (약 3분)', c.hasImage ? '이미지 고맙습니다. 데모 모델은 작품을 정확히 알아볼 수 없으므로, 작가를 단정하는 대신 보는 방법을 안내합니다.\n' : '이미지가 첨부되지 않아 대부분의 그림 앞에서 쓸 수 있는 감상 안내를 드립니다.\n', noteLine(c),
          '### 1. 첫인상', '5초만 조용히 바라보세요. 눈이 가장 먼저 닿는 곳은 대개 우연이 아닙니다.', '', '### 2. 구도', `${c.pick(d.composition)}.`, '',
          '### 3. 색과 빛', `${c.pick(d.colour)}. 세부보다 먼저 분위기를 정합니다. 가장 밝은 지점을 찾으세요. 보통 이야기의 중심입니다.`, '', '### 4. 붓질', c.pick(d.brush), '',
          '### 5. 시대 배경', '이런 방식의 그림은 화가들이 빛과 일상의 소재를 새롭게 보던 시기에 자주 나옵니다. 작품 정보가 아닌 추측으로 들어 주세요.', '', `**관람객께 드리는 질문:** ${c.pick(d.question)}`);
      },
      sonnet: (c) => {
        const d = DOCENT.ko;
        return md(`잠시 이 그림 앞에 함께 서 볼까요? ${c.hasImage ? '먼저 말씀드리면, 데모 모델이라 이미지 속 작품이 무엇인지 정확히 알아보지는 못해요. 그래서 이름을 추측하기보다 어떻게 바라보면 좋을지 안내해 드릴게요.' : '이미지가 보이지 않아서, 어떤 그림 앞에서든 쓸 수 있는 감상법을 들려드릴게요.'}\n`, noteLine(c),
          `먼저 배치를 보세요. ${haeyo(c.pick(d.composition))}. 화가는 첫 붓질 훨씬 전에 이걸 정해 두고, 그 선택이 우리가 어디에 서 있는 듯한지를 조용히 결정해요.\n`,
          `다음은 색이에요. ${c.pick(d.colour)}. 색은 의미보다 먼저 마음에 닿아서, 무엇을 그렸는지 알기도 전에 그림이 긴장되거나 다정하게 느껴지곤 해요. ${haeyo(c.pick(d.brush))}\n`,
          '시대 배경을 말하자면, 이런 그림은 화가들이 빛과 일상의 소재를 새롭게 보던 시기에 자주 그려졌어요. 다만 벽에 붙은 설명 없이 하는 말이니 가볍게 들어 주세요.\n',
          `마지막으로 질문 하나 남길게요. ${c.pick(d.question)}`);
      },
    },
  },
  'rap-lyrics': {
    en: {
      atlas: (c) => {
        const v = verses(c, RAP);
        return md(`## ${v.title}`, `*Style: ${c.inputs.genre ?? 'boom bap'} · keywords: ${keywordsOf(c).join(', ')}*\n`, noteLine(c), '**[Verse 1]**', stanza(v.v1), '', '**[Hook]**', stanza(v.chorus), '', '**[Verse 2]**', stanza(v.v2), '',
          '### Flow notes', '1. **Rhyme scheme:** AABB couplets, with the rhyme landing on the last beat of every bar.', '2. **Hook:** the title four times, so it sticks after one listen.', `3. **Tempo:** around 90 BPM; double the hook on the final pass.`);
      },
      sonnet: (c) => {
        const v = verses(c, RAP);
        return md(`Here’s “${v.title}”, built on ${listOf(keywordsOf(c), 'en')}${c.inputs.genre ? ` with a ${c.inputs.genre} feel` : ''}. I wanted every keyword to land on a beat rather than float in the middle of a line.\n`, noteLine(c),
          '**[Verse 1]**', stanza(v.v1), '', '**[Hook]**', stanza(v.chorus), '', '**[Verse 2]**', stanza(v.v2), '',
          'The verses move in rhymed couplets, and the hook leans on the title so a crowd could shout it back after one listen. Delivery matters as much as the words, so try it out loud; if a line feels crowded, drop a syllable rather than rushing it.', '',
          'Want a third verse, or a version with more internal rhymes?');
      },
    },
    ko: {
      atlas: (c) => {
        const v = verses(c, RAP);
        return md(`## ${v.title}`, `*스타일: ${c.inputs.genre ?? '붐뱁'} · 키워드: ${keywordsOf(c).join(', ')}*\n`, noteLine(c), '**[Verse 1]**', stanza(v.v1), '', '**[Hook]**', stanza(v.chorus), '', '**[Verse 2]**', stanza(v.v2), '',
          '### 플로우 노트', '1. **라임 구조:** 두 마디씩 각운을 맞춘 AABB 구조입니다.', '2. **훅:** 제목을 네 번 반복해 한 번 듣고도 따라 부르게 했습니다.', '3. **템포:** 약 90 BPM. 마지막 훅은 두 번 반복하세요.');
      },
      sonnet: (c) => {
        const v = verses(c, RAP);
        return md(`“${v.title}”, 키워드는 ${listOf(keywordsOf(c))}${c.inputs.genre ? `, 스타일은 ${c.inputs.genre}` : ''}. 키워드가 줄 한가운데 떠 있지 않고 비트 위에 딱 떨어지도록 써 봤어요.\n`, noteLine(c),
          '**[Verse 1]**', stanza(v.v1), '', '**[Hook]**', stanza(v.chorus), '', '**[Verse 2]**', stanza(v.v2), '',
          '벌스는 두 마디씩 라임을 맞췄고, 훅은 제목에 기대서 관객이 한 번 듣고 바로 따라 외칠 수 있게 했어요. 랩은 가사만큼 전달이 중요하니 꼭 소리 내어 불러 보세요. 어떤 줄이 빽빽하게 느껴지면 서두르기보다 한 음절을 빼는 편이 좋아요.', '',
          '3절을 더 붙이거나, 안쪽 라임을 더 촘촘하게 바꿔 볼까요?');
      },
    },
  },
  'accounting-solving': {
    en: {
      atlas: (c) => {
        const l = ledger(c);
        return md('## Accounting Solution', `**Problem:** “${clip(c.text, 200)}”\n`, '### 1. Facts', `- **Amounts given:** ${l.nums.length ? l.nums.map(fmt).join(' · ') : 'none (structure only)'}`, `- **Topic:** ${l.topic.name.en}`, `- **Standard:** ${l.topic.std.en}`, '',
          '### 2. Calculation', l.calc ? `Straight-line: (cost − residual value) ÷ useful life = ${l.calc}` : `Amount to recognise: **${l.amount}**, measured at the transaction price.`, '', '### 3. Journal entry', l.table, '',
          `**Answer:** ${l.calc ? `annual depreciation of **${l.amount}**` : `record the entry above for **${l.amount}**`}.`);
      },
      sonnet: (c) => {
        const l = ledger(c);
        return md(`Let’s untangle this one step by step. You asked: “${clip(c.text, 200)}”\n`,
          `At its heart this is a question about ${l.topic.name.en}, which falls under ${l.topic.std.en}. ${l.nums.length ? `The ${l.nums.length > 1 ? 'figures to work with are' : 'figure to work with is'} ${l.nums.map(fmt).join(', ')}.` : 'There are no figures in the question, so I’ll focus on the structure.'}\n`,
          l.calc ? `Using the straight-line method, the yearly charge is ${l.calc}. That’s the same amount every year, which is why straight-line is the default unless usage varies a lot.\n` : `The amount is measured at the transaction price, here ${l.amount}.\n`,
          'The journal entry looks like this:', '', l.table, '',
          `**Answer:** ${l.calc ? `annual depreciation of **${l.amount}**` : `record **${l.amount}** as shown`}.`, '',
          `A caveat worth keeping in mind: ${l.calc ? 'if the question assumes a different method (declining balance, or a different residual value), the number changes' : 'terms the question doesn’t mention, such as discounts, returns or a financing component, would change the amount'}. Would you like me to show that version too?`);
      },
    },
    ko: {
      atlas: (c) => {
        const l = ledger(c);
        return md('## 회계 풀이', `**문제:** “${clip(c.text, 200)}”\n`, '### 1. 조건 정리', `- **주어진 금액:** ${l.nums.length ? l.nums.map(fmt).join(' · ') : '없음 (구조만 풀이)'}`, `- **주제:** ${l.topic.name.ko}`, `- **관련 기준:** ${l.topic.std.ko}`, '',
          '### 2. 계산', l.calc ? `정액법: (취득원가 − 잔존가치) ÷ 내용연수 = ${l.calc}` : `인식할 금액: **${l.amount}** (거래 가격으로 측정)`, '', '### 3. 분개', l.table, '',
          `**정답:** ${l.calc ? `연간 감가상각비 **${l.amount}**` : `위 분개를 **${l.amount}**${josa(l.amount, '으로')} 기록`}`);
      },
      sonnet: (c) => {
        const l = ledger(c);
        return md(`차근차근 풀어 볼게요. 질문은 이거였어요: “${clip(c.text, 200)}”\n`,
          `핵심은 ${l.topic.name.ko} 문제이고, ${l.topic.std.ko}의 적용을 받아요. ${l.nums.length ? `계산에 쓸 숫자는 ${l.nums.map(fmt).join(', ')}${josa(fmt(l.nums.at(-1) ?? 0), '이에요')}.` : '문제에 숫자가 없어서 구조 위주로 설명할게요.'}\n`,
          l.calc ? `정액법으로 계산하면 한 해 비용은 ${l.calc}${josa(l.amount, '이에요')}. 매년 같은 금액이라 사용량이 크게 달라지지 않는 한 기본으로 쓰는 방법이에요.\n` : `금액은 거래 가격으로 측정해서 ${l.amount}${josa(l.amount, '이에요')}.\n`,
          '분개는 이렇게 돼요.', '', l.table, '',
          `**정답:** ${l.calc ? `연간 감가상각비 **${l.amount}**` : `위와 같이 **${l.amount}** 기록`}`, '',
          `한 가지 주의할 점은, ${l.calc ? '문제가 정률법이나 다른 잔존가치를 전제한다면 숫자가 달라진다는' : '문제에 없는 할인, 반품, 금융 요소 같은 조건이 있다면 금액이 달라진다는'} 거예요. 그 버전도 보여 드릴까요?`);
      },
    },
  },
  'excel-solving': {
    en: {
      atlas: (c) => {
        const x = XL.find((i) => i.re.test(c.text)) ?? XL_IF;
        return md('## Spreadsheet Solution', `**Problem:** “${clip(c.text, 200)}”\n`, '### Formula', codeBlock(x.formula.en), '', '### How it works', ...x.args.en.map((a, i) => `${i + 1}. ${a}`), '',
          '### Example', xlTable(x.table.en), '', x.result.en, '', '### Watch out', `- ${x.pitfall.en}`, '- Works the same in Google Sheets.');
      },
      sonnet: (c) => {
        const x = XL.find((i) => i.re.test(c.text)) ?? XL_IF;
        return md(`Good question. You asked: “${clip(c.text, 200)}” Here’s the formula I’d reach for:\n`, codeBlock(x.formula.en), '',
          `Reading it from left to right: ${x.args.en.map((a) => a.replace(/: /, ' is ')).join('; ')}.\n`, 'To see it in action, here is a tiny example:', '', xlTable(x.table.en), '', x.result.en, '',
          `One thing that trips people up: ${low(x.pitfall.en)}`, '', 'If you tell me your actual column layout, I can adjust the ranges so you can paste it straight in.');
      },
    },
    ko: {
      atlas: (c) => {
        const x = XL.find((i) => i.re.test(c.text)) ?? XL_IF;
        return md('## 스프레드시트 풀이', `**문제:** “${clip(c.text, 200)}”\n`, '### 수식', codeBlock(x.formula.ko), '', '### 인수 설명', ...x.args.ko.map((a, i) => `${i + 1}. ${a}`), '',
          '### 예시', xlTable(x.table.ko), '', x.result.ko, '', '### 주의할 점', `- ${x.pitfall.ko}`, '- 구글 시트에서도 똑같이 동작합니다.');
      },
      sonnet: (c) => {
        const x = XL.find((i) => i.re.test(c.text)) ?? XL_IF;
        return md(`좋은 질문이에요. “${clip(c.text, 200)}” 이런 경우라면 저는 이 수식을 쓸 것 같아요.\n`, codeBlock(x.formula.ko), '',
          '하나씩 뜯어 보면 이래요.', '', ...x.args.ko.map((a) => `- ${a}`), '', '작은 예시로 보면 이해가 쉬워요.', '', xlTable(x.table.ko), '', haeyo(x.result.ko), '',
          `많이들 헷갈리는 부분도 하나 있어요. ${haeyo(x.pitfall.ko)}`, '', '실제 열 구성을 알려 주시면 바로 붙여 넣을 수 있게 범위를 맞춰 드릴게요.');
      },
    },
  },
  'anything-question': {
    en: {
      atlas: (c) => {
        const k = ANSWERS[kindOf(c.text)];
        const a = arithmetic(c.text);
        return md('## Answer', `**Question:** “${clip(c.text, 200)}”\n`, `**Short answer:** ${a ? `${a.expr} = **${a.value}**.` : cap(k.short.en)}`, '', `**Focus:** ${listOf(cluesOf(c.text), 'en')}`, '', '### Key points', ...k.points.en.map((p, i) => `${i + 1}. ${p}`), '',
          '### Next step', 'Pick the point above that matches your situation best and apply it to one concrete case today; add details to your question for a more specific answer.');
      },
      sonnet: (c) => {
        const k = ANSWERS[kindOf(c.text)];
        const a = arithmetic(c.text);
        const [first] = cluesOf(c.text);
        return md(`That’s a good thing to wonder about. You asked: “${clip(c.text, 200)}”\n`,
          `${a ? `The quick answer is ${a.expr} = ${a.value}.` : `The short version: ${k.short.en}`} With “${first}” at the centre of your question, three ideas help most:\n`,
          ...k.points.en.map((p) => `- ${p}`), '',
          'I’ll be honest about a limit: this is a general answer, and the details of your situation could change it. Treat it as a starting point rather than a final word.', '',
          'Could you tell me a bit more about your situation? I can make the answer much more specific.');
      },
    },
    ko: {
      atlas: (c) => {
        const k = ANSWERS[kindOf(c.text)];
        const a = arithmetic(c.text);
        return md('## 답변', `**질문:** “${clip(c.text, 200)}”\n`, `**핵심 답:** ${a ? `${a.expr} = **${a.value}**` : k.short.ko}`, '', `**초점:** ${listOf(cluesOf(c.text))}`, '', '### 핵심 정리', ...k.points.ko.map((p, i) => `${i + 1}. ${p}`), '',
          '### 다음 단계', '위에서 상황에 가장 맞는 항목 하나를 골라 오늘 구체적인 사례에 적용해 보세요. 질문에 상황을 더 적어 주시면 더 구체적으로 답하겠습니다.');
      },
      sonnet: (c) => {
        const k = ANSWERS[kindOf(c.text)];
        const a = arithmetic(c.text);
        const [first] = cluesOf(c.text);
        return md(`궁금해할 만한 질문이에요. 물어보신 건 이거죠: “${clip(c.text, 200)}”\n`,
          `${a ? `바로 답하면 ${a.expr} = ${a.value}${josa(a.value, '이에요')}.` : `짧게 말하면, ${haeyo(k.short.ko)}`} 질문의 중심에 있는 “${first}”${josa(first ?? '', '을')} 생각하면 세 가지가 가장 도움이 돼요.\n`,
          ...k.points.ko.map((p) => `- ${haeyo(p)}`), '',
          '솔직히 말하면 이건 일반적인 답이라, 상황의 세부 사항에 따라 달라질 수 있어요. 최종 결론보다는 출발점으로 삼아 주세요.', '',
          '상황을 조금 더 알려 주실래요? 훨씬 구체적으로 답해 드릴 수 있어요.');
      },
    },
  },
};

const NOTICE: Record<Language, Record<Style, string>> = {
  en: { atlas: '> *Demo model answer: a built-in sample, no live model behind it.*', sonnet: '*(A built-in demo model wrote this sample answer.)*' },
  ko: { atlas: '> *데모 모델의 예시 답변입니다 (실제 모델이 아닙니다).*', sonnet: '*(내장 데모 모델이 쓴 예시 답변이에요.)*' },
};

/** Names of models and makers, scrubbed from echoed input so a demo answer never names one. */
const MAKERS = /[\w-]*(?:gpt|openai|claude|anthropic)[\w.-]*|오픈\s?AI|오픈에이아이|챗지피티|지피티|클로드|앤트로픽/gi;

/**
 * The whole answer a demo model gives: a pure, deterministic function of the model name and the
 * visitor's question. Exported for tests and previews; `createDemoProvider` streams it.
 */
export function demoAnswer(model: string, q: ChatRequest['context']): string {
  const style: Style = model === 'sonnet' ? 'sonnet' : 'atlas';
  const rand = seeded(seedOf(model, q));
  const take = <T>(items: readonly T[], n: number): T[] => {
    const a = [...items];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [a[i], a[j]] = [a[j] as T, a[i] as T];
    }
    return a.slice(0, n);
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const c: Ctx = { lang: q.lang, style, inputs: q.inputs, text: q.text, hasImage: q.hasImage, pick, take };
  const body = (CONTENT[q.tool] ?? CONTENT['anything-question'])?.[q.lang][style](c) ?? '';
  const text = style === 'atlas' ? `${NOTICE[q.lang].atlas}\n\n${body}` : `${body}\n\n${NOTICE[q.lang].sonnet}`;
  return text.replace(/\n{3,}/g, '\n\n').replace(MAKERS, q.lang === 'ko' ? '[모델]' : '[a model]');
}

// ------------------------------------------------------------------------------------ streaming

/** Splits an answer into stream chunks of a word or a few characters; they concatenate back exactly. */
function toChunks(text: string): string[] {
  const out: string[] = [];
  for (const [piece] of text.matchAll(/\s*\S+|\s+/g)) {
    const cps = Array.from(piece);
    if (cps.length <= 8) out.push(piece);
    else for (let i = 0; i < cps.length; i += 5) out.push(cps.slice(i, i + 5).join(''));
  }
  return out;
}

/** Rough token count: about four characters, at least one per chunk. */
const tokensOf = (chunk: string): number => Math.max(1, Math.ceil(Array.from(chunk.trim()).length / 4));

/** Waits `ms`; resolves `false` at once (timer cleared) if `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Delays shorter than this are carried over and slept in one go, so very high speeds stay fast. */
const MIN_SLEEP_MS = 4;

async function* streamDemo(spec: ModelSpec, req: ChatRequest, speed: number): AsyncGenerator<StreamChunk> {
  const { signal } = req;
  const seed = seedOf(spec.model, req.context);
  const chunks = toChunks(demoAnswer(spec.model, req.context));
  const ttftMs = 350 + (seed % 351);
  const tokensPerSec = 30 + ((seed >>> 12) % 31);
  const inputTokens = Math.ceil((req.system.length + req.user.length) / 4) + (req.image ? 765 : 0);
  let outputTokens = 0;
  let reason: FinishReason = 'stop';

  if (!(await sleep(ttftMs / speed, signal))) reason = 'cancelled';
  else {
    let owed = 0;
    for (const chunk of chunks) {
      if (signal.aborted) {
        reason = 'cancelled';
        break;
      }
      const tokens = tokensOf(chunk);
      if (outputTokens + tokens > req.maxTokens) {
        reason = 'length';
        break;
      }
      yield { type: 'text', text: chunk };
      outputTokens += tokens;
      owed += (tokens * 1000) / tokensPerSec / speed;
      if (owed >= MIN_SLEEP_MS) {
        if (!(await sleep(owed, signal))) {
          reason = 'cancelled';
          break;
        }
        owed = 0;
      }
    }
  }
  if (reason !== 'cancelled' && signal.aborted) reason = 'cancelled';
  yield { type: 'usage', inputTokens, outputTokens };
  yield { type: 'finish', reason };
}

/**
 * The built-in demo models Duet uses when no API key is configured.
 *
 * No network and no clock-driven randomness: the answer is a deterministic function of
 * `spec.model` and the visitor's question (`req.context`: tool, language, inputs, text, image flag).
 * `model: 'sonnet'` answers in a warm, prose style with caveats and a closing question; any other
 * model (`'atlas'`) in a structured style with headings, numbered lists, bold and tables. Each of
 * the 13 tools gets an answer of its own kind, in Korean or English, built from the visitor's inputs.
 *
 * The answer streams at a realistic pace: a first token after 350–700 ms (fixed per question),
 * then 30–60 tokens per second in chunks of a word or a few characters. `opts.speed` (default 1)
 * divides every delay. Output stops near `req.maxTokens` (finish `length`); an aborted `req.signal`
 * stops it at once (finish `cancelled`). One `usage` chunk precedes the single `finish`.
 */
export function createDemoProvider(spec: ModelSpec, opts: { speed?: number } = {}): ModelProvider {
  const speed = opts.speed !== undefined && opts.speed > 0 ? opts.speed : 1;
  return { spec, stream: (req) => streamDemo(spec, req, speed) };
}
