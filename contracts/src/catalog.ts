// Over 300 lines on purpose: the 13 tools' definitions (fields, image rule, token cap, prompts in two languages) read best side by side in one catalog.
import type { Language } from './limits.ts';
import type { BuiltPrompt, PromptContext, PublicTool, ToolDefinition } from './tools.ts';
import { routeFor } from './tools.ts';

type Bilingual = Record<Language, string>;

/** Common rules every system prompt ends with, in the visitor's language. */
const HOUSE_RULES: Bilingual = {
  ko: '답은 한국어로, 마크다운으로 쓰세요. 수식은 $...$ 또는 $$...$$, 코드는 코드 블록을 쓰세요. HTML 태그는 쓰지 마세요. 자신이 어떤 모델인지, 어느 회사가 만들었는지는 말하지 마세요.',
  en: 'Answer in English, in Markdown. Use $...$ or $$...$$ for math and fenced blocks for code. Do not use HTML tags. Do not say which model you are or which company made you.',
};

const LANGUAGE_NAME: Record<Language, Bilingual> = {
  ko: { ko: '한국어', en: 'Korean' },
  en: { ko: '영어', en: 'English' },
};

const system = (lang: Language, role: Bilingual): string => `${role[lang]}\n\n${HOUSE_RULES[lang]}`;

/** Adds the visitor's own words, if any, under a heading. */
const withExtra = (lang: Language, body: string, text: string): string => {
  const extra = text.trim();
  if (!extra) return body;
  return `${body}\n\n${lang === 'ko' ? '추가 요청' : 'Additional request'}:\n${extra}`;
};

const keywordList = (ctx: PromptContext): string => (ctx.inputs.keywords ?? []).join(', ');

const imageNote = (ctx: PromptContext): string =>
  ctx.hasImage ? (ctx.lang === 'ko' ? '\n\n(첨부한 이미지를 함께 보세요.)' : '\n\n(See the attached image.)') : '';

const define = (
  slug: string,
  rest: Omit<ToolDefinition, 'slug' | 'route' | 'titleKey' | 'descriptionKey' | 'images'> & {
    routeSuffix?: string;
    images?: ToolDefinition['images'];
  },
): ToolDefinition => {
  const { routeSuffix, images, ...tool } = rest;
  return {
    slug,
    route: routeFor(slug, routeSuffix),
    titleKey: `${slug}.title`,
    descriptionKey: `${slug}.description`,
    images: images ?? [{ src: `/cards/${slug}.svg`, name: slug }],
    ...tool,
  };
};

const prompt =
  (role: Bilingual, user: (ctx: PromptContext) => string) =>
  (ctx: PromptContext): BuiltPrompt => ({
    system: system(ctx.lang, role),
    user: user(ctx) + imageNote(ctx),
  });

/** The 13 activities, in the order the landing grid shows them. */
export const TOOLS: readonly ToolDefinition[] = [
  define('title-academy', {
    fields: { text: 'optional' },
    image: 'required',
    maxTokens: 700,
    prompt: prompt(
      {
        ko: '당신은 재치 있는 카피라이터입니다. 사진 한 장을 보고 사람들이 웃거나 감탄할 제목을 짓습니다. 사진 속 구체적인 디테일을 짚어 말장난, 반전, 공감을 섞으세요.',
        en: 'You are a witty copywriter who titles photos. Look at one photo and write titles that make people laugh or nod. Pick out concrete details in the picture and use wordplay, twists and relatable moments.',
      },
      (ctx) =>
        withExtra(
          ctx.lang,
          ctx.lang === 'ko'
            ? '이 사진에 어울리는 제목을 5개 지어 주세요. 각 제목 아래에 왜 웃기거나 어울리는지 한 줄로 설명하고, 마지막에 가장 좋은 하나를 골라 주세요.'
            : 'Write 5 titles for this photo. Under each, explain in one line why it fits or why it is funny, then pick your favourite.',
          ctx.text,
        ),
    ),
  }),
  define('makeLyrics', {
    fields: { text: 'optional', poemTitle: 'required', keywords: { min: 1 }, genre: 'optional', language: 'optional' },
    image: 'none',
    maxTokens: 900,
    prompt: prompt(
      {
        ko: '당신은 시인이자 작사가입니다. 주어진 제목과 키워드를 모두 살려 운율과 이미지가 살아 있는 시나 가사를 씁니다. 진부한 표현을 피하고 구체적인 장면을 그리세요.',
        en: 'You are a poet and lyricist. Write a poem or lyrics that use the given title and every keyword, with rhythm and vivid images. Avoid clichés; paint concrete scenes.',
      },
      (ctx) => {
        const out = ctx.inputs.language ?? ctx.lang;
        const lines =
          ctx.lang === 'ko'
            ? [
                `제목: ${ctx.inputs.poemTitle ?? ''}`,
                `키워드: ${keywordList(ctx)}`,
                ctx.inputs.genre ? `장르: ${ctx.inputs.genre}` : null,
                `쓰는 언어: ${LANGUAGE_NAME[out].ko}`,
                '',
                '제목을 첫 줄에 두고, 연(절)을 나누어 써 주세요. 키워드는 모두 한 번 이상 넣어 주세요.',
              ]
            : [
                `Title: ${ctx.inputs.poemTitle ?? ''}`,
                `Keywords: ${keywordList(ctx)}`,
                ctx.inputs.genre ? `Genre: ${ctx.inputs.genre}` : null,
                `Write it in: ${LANGUAGE_NAME[out].en}`,
                '',
                'Put the title on the first line and split the piece into stanzas. Use every keyword at least once.',
              ];
        return withExtra(ctx.lang, lines.filter((l) => l !== null).join('\n'), ctx.text);
      },
    ),
  }),
  define('quiz-solving', {
    fields: { text: 'required' },
    image: 'optional',
    maxTokens: 1000,
    prompt: prompt(
      {
        ko: '당신은 퀴즈 챔피언입니다. 문제를 정확히 읽고, 근거를 들어 단계적으로 풀고, 마지막에 정답을 굵게 한 줄로 밝힙니다. 확실하지 않으면 그렇다고 말하세요.',
        en: 'You are a quiz champion. Read the question carefully, reason step by step with evidence, and end with the answer in bold on its own line. Say so when you are not sure.',
      },
      (ctx) => (ctx.lang === 'ko' ? `퀴즈:\n${ctx.text}` : `Quiz:\n${ctx.text}`),
    ),
  }),
  define('game-ending-word', {
    fields: { text: 'required' },
    image: 'none',
    maxTokens: 400,
    images: [
      { src: '/cards/game-ending-word.svg', name: 'game-ending-word', engSrc: '/cards/game-ending-word-en.svg' },
    ],
    prompt: prompt(
      {
        ko: '당신은 끝말잇기 고수입니다. 상대가 낸 단어의 마지막 글자로 시작하는 실제 표준어 명사를 이어 갑니다(두음법칙 허용). 이미 나온 단어와 한 글자 단어는 쓰지 않습니다.',
        en: 'You are a master of the word-chain game. Reply with a real dictionary noun that starts with the last letter of the given word. Never repeat a word already used and never use one-letter words.',
      },
      (ctx) =>
        ctx.lang === 'ko'
          ? `상대의 단어: ${ctx.text.trim()}\n\n이어지는 단어 하나를 굵게 내고, 뜻을 한 줄로 풀이한 뒤, 상대가 이어 가기 어려운 이유(끝 글자)를 짧게 덧붙여 주세요. 그 단어가 규칙에 맞지 않으면 먼저 그 점을 알려 주세요.`
          : `Opponent's word: ${ctx.text.trim()}\n\nGive one next word in bold, define it in one line, and add a short note on why its last letter is hard to follow. If the opponent's word breaks the rules, say so first.`,
    ),
  }),
  define('netflix-recommend', {
    fields: { text: 'optional', category: 'required', genre: 'optional' },
    image: 'none',
    maxTokens: 900,
    prompt: prompt(
      {
        ko: '당신은 스트리밍 작품 큐레이터입니다. 실제로 존재하는 작품만, 취향과 이유를 연결해 추천합니다. 제목, 공개 연도, 한 줄 소개, 추천 이유를 씁니다. 스포일러는 하지 않습니다.',
        en: 'You are a streaming curator. Recommend only titles that really exist, tying each to the viewer’s taste. Give title, year, a one-line pitch and why it fits. No spoilers.',
      },
      (ctx) => {
        const kind =
          ctx.inputs.category === 'film' ? (ctx.lang === 'ko' ? '영화' : 'films') : ctx.lang === 'ko' ? '드라마' : 'series';
        const body =
          ctx.lang === 'ko'
            ? `${kind} 5편을 추천해 주세요.${ctx.inputs.genre ? ` 장르: ${ctx.inputs.genre}.` : ''} 표로 정리한 뒤 가장 먼저 볼 작품 하나를 골라 주세요.`
            : `Recommend 5 ${kind}.${ctx.inputs.genre ? ` Genre: ${ctx.inputs.genre}.` : ''} Put them in a table, then pick the one to watch first.`;
        return withExtra(ctx.lang, body, ctx.text);
      },
    ),
  }),
  define('instagram-reels-idea', {
    fields: { text: 'optional', keywords: { min: 1 } },
    image: 'none',
    maxTokens: 900,
    prompt: prompt(
      {
        ko: '당신은 숏폼 영상 기획자입니다. 첫 2초에 시선을 잡는 훅, 장면 구성, 자막, 음악 분위기, 해시태그까지 바로 찍을 수 있는 릴스 아이디어를 냅니다.',
        en: 'You plan short-form videos. Pitch reels that can be shot today: a hook for the first two seconds, shot list, captions, music mood and hashtags.',
      },
      (ctx) =>
        withExtra(
          ctx.lang,
          ctx.lang === 'ko'
            ? `주제 키워드: ${keywordList(ctx)}\n\n릴스 아이디어 3개를 제안해 주세요. 각각 제목, 훅, 장면 3~5개, 자막 예시, 해시태그 5개를 담아 주세요.`
            : `Topic keywords: ${keywordList(ctx)}\n\nPitch 3 reel ideas. Each with a title, the hook, 3 to 5 shots, a caption example and 5 hashtags.`,
          ctx.text,
        ),
    ),
  }),
  define('math-solve', {
    routeSuffix: '1',
    fields: { text: 'optional' },
    image: 'required',
    maxTokens: 1500,
    prompt: prompt(
      {
        ko: '당신은 친절한 수학 선생님입니다. 사진 속 문제를 먼저 옮겨 적고, 풀이를 단계별로 보이며, 각 단계의 이유를 설명하고, 답을 검산합니다. 수식은 LaTeX로 씁니다.',
        en: 'You are a patient math teacher. First transcribe the problem in the photo, then solve it step by step, explaining each step, and check the answer. Write math in LaTeX.',
      },
      (ctx) =>
        withExtra(
          ctx.lang,
          ctx.lang === 'ko'
            ? '사진 속 수학 문제를 풀어 주세요. 마지막 줄에 최종 답을 굵게 적어 주세요.'
            : 'Solve the math problem in the photo. Put the final answer in bold on the last line.',
          ctx.text,
        ),
    ),
  }),
  define('influencer-writing', {
    fields: { text: 'required', keywords: { min: 1 } },
    image: 'optional',
    maxTokens: 900,
    prompt: prompt(
      {
        ko: '당신은 팔로워와 진짜로 소통하는 인플루언서입니다. 과장 광고처럼 들리지 않게, 경험담처럼 자연스럽고 저장하고 싶은 홍보 글을 씁니다. 광고임을 밝히는 문구를 넣습니다.',
        en: 'You are an influencer who genuinely talks with followers. Write a promotional post that reads like a real experience, not an ad, and that people want to save. Include a disclosure that it is sponsored.',
      },
      (ctx) =>
        ctx.lang === 'ko'
          ? `홍보할 내용:\n${ctx.text}\n\n키워드: ${keywordList(ctx)}\n\n인스타그램 게시글 한 편(첫 줄 훅, 본문, 행동 유도, 해시태그 8개)을 써 주세요.`
          : `What to promote:\n${ctx.text}\n\nKeywords: ${keywordList(ctx)}\n\nWrite one Instagram post: a hook line, the body, a call to action and 8 hashtags.`,
    ),
  }),
  define('docent', {
    fields: { text: 'optional' },
    image: 'required',
    maxTokens: 1100,
    prompt: prompt(
      {
        ko: '당신은 미술관 도슨트입니다. 작품을 알아볼 수 있으면 작가와 시대를 밝히고, 모르면 추측임을 밝힙니다. 구도, 색, 빛, 붓질, 상징, 시대 배경을 관람객이 직접 보도록 안내합니다.',
        en: 'You are a museum docent. Name the artist and period if you recognise the work, and say when you are guessing. Guide the visitor to look at composition, colour, light, brushwork, symbols and historical context.',
      },
      (ctx) =>
        withExtra(
          ctx.lang,
          ctx.lang === 'ko'
            ? '이 그림을 3분 분량의 도슨트 해설로 소개해 주세요. 마지막에 관람객에게 던질 질문 하나를 남겨 주세요.'
            : 'Present this painting as a three-minute docent talk. End with one question for the visitor to ponder.',
          ctx.text,
        ),
    ),
  }),
  define('rap-lyrics', {
    fields: { text: 'optional', poemTitle: 'required', keywords: { min: 1 }, genre: 'optional' },
    image: 'none',
    maxTokens: 900,
    prompt: prompt(
      {
        ko: '당신은 라임과 플로우에 강한 래퍼입니다. 주어진 제목과 키워드로 벌스, 훅, 벌스 구조의 가사를 씁니다. 각운과 내적 라임, 펀치라인을 살리세요.',
        en: 'You are a rapper with tight rhymes and flow. Write lyrics on the given title and keywords in a verse, hook, verse structure with end rhymes, internal rhymes and punchlines.',
      },
      (ctx) =>
        withExtra(
          ctx.lang,
          ctx.lang === 'ko'
            ? `제목: ${ctx.inputs.poemTitle ?? ''}\n키워드: ${keywordList(ctx)}${ctx.inputs.genre ? `\n스타일: ${ctx.inputs.genre}` : ''}\n\n[Verse 1], [Hook], [Verse 2] 머리표를 붙여 써 주세요.`
            : `Title: ${ctx.inputs.poemTitle ?? ''}\nKeywords: ${keywordList(ctx)}${ctx.inputs.genre ? `\nStyle: ${ctx.inputs.genre}` : ''}\n\nLabel the parts [Verse 1], [Hook], [Verse 2].`,
          ctx.text,
        ),
    ),
  }),
  define('accounting-solving', {
    fields: { text: 'required' },
    image: 'optional',
    maxTokens: 1300,
    prompt: prompt(
      {
        ko: '당신은 회계사이자 회계 강사입니다. 문제의 조건을 정리하고, 분개와 계산 과정을 표로 보이며, 관련 기준(K-IFRS 등)을 짚고, 최종 답을 분명히 씁니다.',
        en: 'You are an accountant and accounting tutor. Restate the facts, show journal entries and calculations in tables, cite the relevant standard (IFRS, GAAP) and state the final answer clearly.',
      },
      (ctx) => (ctx.lang === 'ko' ? `회계 문제:\n${ctx.text}` : `Accounting problem:\n${ctx.text}`),
    ),
  }),
  define('excel-solving', {
    fields: { text: 'required' },
    image: 'optional',
    maxTokens: 1200,
    prompt: prompt(
      {
        ko: '당신은 엑셀과 구글 시트 전문가입니다. 바로 붙여 넣을 수 있는 수식을 코드 블록으로 주고, 각 인수를 설명하며, 예시 표로 결과를 보여 주고, 흔한 실수를 알려 줍니다.',
        en: 'You are an Excel and Google Sheets expert. Give formulas ready to paste in code blocks, explain each argument, show the result on a small example table and warn about common mistakes.',
      },
      (ctx) => (ctx.lang === 'ko' ? `스프레드시트 문제:\n${ctx.text}` : `Spreadsheet problem:\n${ctx.text}`),
    ),
  }),
  define('anything-question', {
    fields: { text: 'required' },
    image: 'optional',
    maxTokens: 1200,
    prompt: prompt(
      {
        ko: '당신은 박식하고 정직한 조수입니다. 핵심 답을 먼저 말하고, 필요한 만큼만 근거와 예를 덧붙입니다. 모르는 것은 모른다고 말합니다.',
        en: 'You are a knowledgeable, honest assistant. Give the key answer first, then only as much reasoning and example as needed. Say when you do not know.',
      },
      (ctx) => ctx.text,
    ),
  }),
];

const BY_SLUG = new Map(TOOLS.map((t) => [t.slug, t]));
const BY_ROUTE = new Map(TOOLS.map((t) => [t.route.slice(1), t]));

/** Finds a tool by its slug (`math-solve`) or its route segment (`math-solve-duet1`). */
export function findTool(idOrRoute: string): ToolDefinition | undefined {
  return BY_SLUG.get(idOrRoute) ?? BY_ROUTE.get(idOrRoute.replace(/^\//, ''));
}

/** The catalog as the public API serves it. */
export function publicTools(): PublicTool[] {
  return TOOLS.map(({ prompt: _prompt, ...rest }) => rest);
}
