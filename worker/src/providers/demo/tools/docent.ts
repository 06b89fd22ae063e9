/**
 * Docent talk. The demo models can't identify the work in a photo and say so. Atlas guides the
 * looking in five numbered steps; Sonnet teaches the same habits through famous paintings you can
 * compare against. Each draws its observations from its own half of the pools.
 */
import type { Language } from '@duet/contracts';
import type { Ctx, ToolWriters } from '../context.ts';
import { formal } from '../korean.ts';
import { md, numbered } from '../markdown.ts';

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

/** Famous works that show one looking habit each, for Sonnet's example-led talk. */
const EXAMPLES: Record<Language, string[]> = {
  en: [
    'In Vermeer’s *Girl with a Pearl Earring*, the brightest point is the pearl and the wet shine of her lips: the light tells you where to look.',
    'Hokusai’s *Great Wave off Kanagawa* pulls your eye along the curl of the wave before you even notice tiny Mount Fuji in the distance.',
    'Edward Hopper’s *Nighthawks* leaves a wide, empty street around a lit diner, and the emptiness is what makes it lonely.',
    'Van Gogh’s *Starry Night* shows the paint itself: thick, swirling strokes you could almost trace with a finger.',
    'Monet painted *Impression, Sunrise* in quick dabs so the orange sun seems to flicker on the grey water.',
    'Rembrandt’s portraits sink most of the face into shadow, so the few lit features feel like a confession.',
  ],
  ko: [
    '페르메이르의 〈진주 귀고리를 한 소녀〉에서 가장 밝은 곳은 진주와 촉촉한 입술이에요. 빛이 어디를 보라고 알려 주는 거죠.',
    '호쿠사이의 〈가나가와 해변의 높은 파도〉는 파도의 곡선을 따라 시선을 끌고 가다가, 그제야 멀리 작은 후지산을 보게 해요.',
    '호퍼의 〈밤을 새우는 사람들〉은 불 켜진 식당 주위에 텅 빈 거리를 넓게 남겨서, 그 빈자리가 외로움을 만들어요.',
    '반 고흐의 〈별이 빛나는 밤〉은 물감 자체를 보여 줘요. 손가락으로 따라 그릴 수 있을 만큼 두텁게 소용돌이치는 붓질이요.',
    '모네는 〈인상, 해돋이〉를 빠른 붓 터치로 그려서 주황빛 해가 회색 물 위에서 일렁이는 것처럼 보여요.',
    '렘브란트의 초상화는 얼굴 대부분을 그림자에 묻어서, 빛을 받은 몇 군데가 고백처럼 느껴져요.',
  ],
};

function atlas(c: Ctx): string {
  const ko = c.lang === 'ko';
  const d = DOCENT[c.lang];
  const pick = <T,>(xs: T[]): T => c.pick(c.own(xs));
  const say = (s: string) => (ko ? formal(s) : s);
  return md(
    ko ? '## 도슨트 해설 (약 3분)' : '## Docent Talk (about 3 minutes)',
    ko
      ? `${c.hasImage ? '데모 모델은 이미지 속 작품을 알아볼 수 없어, 작가를 추측하는 대신 보는 순서를 안내합니다.' : '이미지가 첨부되지 않아, 어떤 그림 앞에서든 쓸 수 있는 보는 순서를 안내합니다.'}\n`
      : `${c.hasImage ? 'This demo model can’t identify the work in your image, so rather than guess an artist, here is an order for looking.' : 'No image came through, so here is an order for looking that works in front of any painting.'}\n`,
    ...numbered(
      ko
        ? ['**첫인상 (5초):** 눈이 가장 먼저 닿는 곳을 기억하세요. 대개 우연이 아닙니다.', `**구도:** ${say(pick(d.composition))}.`, `**색과 빛:** ${pick(d.colour)}. 가장 밝은 지점이 보통 이야기의 중심입니다.`, `**붓질:** ${say(pick(d.brush))}`, '**맥락:** 벽의 설명을 읽기 전에 언제, 왜 그렸을지 한 번 짐작해 보세요.']
        : ['**First impression (5 seconds):** notice where your eye lands first; it is rarely an accident.', `**Composition:** notice ${pick(d.composition)}.`, `**Colour and light:** ${pick(d.colour)}. The brightest point usually marks the centre of the story.`, `**Brushwork:** ${pick(d.brush)}`, '**Context:** before reading the label, guess when and why it was painted.'],
    ),
    '',
    `**${ko ? '질문' : 'A question for you'}:** ${pick(d.question)}`,
  );
}

function sonnet(c: Ctx): string {
  const ko = c.lang === 'ko';
  const [a, b] = c.take(c.own(EXAMPLES[c.lang]), 2);
  const q = c.pick(c.own(DOCENT[c.lang].question));
  return md(
    ko
      ? `${c.hasImage ? '먼저 솔직히 말씀드리면, 데모 모델이라 사진 속 작품이 무엇인지 알아보지 못해요.' : '이미지가 보이지 않네요.'} 그래서 이름을 추측하기보다, 유명한 그림 두 점을 빌려 어떻게 보면 좋을지 이야기해 볼게요.\n`
      : `${c.hasImage ? 'I should say first that, as a demo model, I can’t tell which work is in your photo.' : 'Your image didn’t come through.'} So rather than guess a name, let me borrow two famous paintings to show a way of looking.\n`,
    `${a}\n`,
    `${b}\n`,
    ko
      ? '이제 앞에 있는 그림으로 돌아가서 같은 질문을 던져 보세요. 가장 밝은 곳은 어디인지, 비어 있는 곳은 무엇을 말하는지, 붓 자국이 보이는지. 작품 설명은 그다음에 읽어도 늦지 않아요.\n'
      : 'Now turn back to the painting in front of you and ask the same things: where is the brightest point, what is the empty space doing, can you see the brushstrokes? The label can wait until after.\n',
    ko ? `마지막으로 하나만 여쭤볼게요. ${q}` : `One last question to take with you: ${q.charAt(0).toLowerCase()}${q.slice(1)}`,
  );
}

export const docent: ToolWriters = { atlas: { en: atlas, ko: atlas }, sonnet: { en: sonnet, ko: sonnet } };
