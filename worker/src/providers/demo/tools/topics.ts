/**
 * Everyday science questions the demo models can really answer, each told two ways: a short
 * answer with key points (atlas) and an explanation led by an example you can try (sonnet).
 */
import type { Bi } from '../context.ts';

export interface Topic {
  re: RegExp;
  short: Bi;
  points: Bi<string[]>;
  story: Bi<string[]>;
}

export const TOPICS: Topic[] = [
  {
    re: /sky.*blue|blue.*sky|하늘.*(?:파란|푸른|파랗|파래)/i,
    short: {
      en: 'Rayleigh scattering: air molecules scatter short (blue) wavelengths of sunlight far more than long (red) ones, so blue light reaches your eyes from every direction of the sky.',
      ko: '레일리 산란 때문입니다. 공기 분자는 햇빛 중 파장이 짧은 파란빛을 붉은빛보다 훨씬 많이 흩뜨려, 하늘 어느 쪽을 봐도 파란빛이 눈에 들어옵니다.',
    },
    points: {
      en: ['**Scattering grows fast as wavelength shrinks** (about 1/λ⁴): blue is scattered roughly five times more than red.', '**Why not violet?** The Sun emits less violet, some is absorbed high up, and our eyes are less sensitive to it.', '**Same physics, other colours:** at sunset light crosses much more air, the blue is scattered away, and reds remain.'],
      ko: ['**파장이 짧을수록 훨씬 많이 산란됩니다** (약 1/λ⁴). 파란빛은 붉은빛보다 다섯 배쯤 더 흩어집니다.', '**보라색이 아닌 이유:** 햇빛에 보라색이 적고, 높은 대기에서 일부 흡수되며, 사람 눈이 보라색에 덜 민감합니다.', '**노을도 같은 원리:** 해 질 녘에는 빛이 공기층을 훨씬 길게 지나며 파란빛이 먼저 흩어지고 붉은빛이 남습니다.'],
    },
    story: {
      en: ['Try this at home: shine a torch through a glass of water with a few drops of milk stirred in. From the side the glass looks faintly blue; looking straight through it at the torch, the light looks orange.', 'The sky does the same thing on a giant scale. Sunlight holds every colour, and the nitrogen and oxygen molecules in the air scatter short wavelengths much more strongly than long ones. This is called Rayleigh scattering. So blue light gets bounced around the whole sky and reaches you from everywhere you look, while the direct sunlight is left slightly yellow.', 'Violet is scattered even more, but sunlight carries less of it and our eyes pick it up poorly, so the mix reads as blue.'],
      ko: ['집에서 해 볼 수 있어요. 물 한 컵에 우유를 몇 방울 풀고 손전등을 비춰 보세요. 옆에서 보면 컵이 살짝 푸르스름하고, 손전등 쪽을 정면으로 보면 빛이 주황빛이에요.', '하늘은 이 실험을 아주 크게 하는 셈이에요. 햇빛에는 모든 색이 섞여 있는데, 공기 속 질소와 산소 분자는 파장이 짧은 빛을 긴 빛보다 훨씬 세게 흩뜨려요. 이걸 레일리 산란이라고 해요. 그래서 파란빛이 하늘 전체로 튕겨 다니다가 어느 쪽을 봐도 눈에 들어오고, 곧게 오는 햇빛은 살짝 노랗게 남아요.', '보라색은 더 많이 산란되지만 햇빛에 원래 적고 우리 눈도 잘 느끼지 못해서, 섞인 결과가 파랗게 보여요.'],
    },
  },
  {
    re: /sunset|sunrise|노을|석양|해 ?질 ?녘/i,
    short: {
      en: 'At sunrise and sunset sunlight crosses up to about 40 times more air; the blue is scattered out along the way and mostly red and orange light reaches you.',
      ko: '해가 낮게 뜨면 햇빛이 지나는 공기층이 수십 배 길어져 파란빛은 도중에 흩어지고, 주로 붉은빛과 주황빛이 눈에 닿습니다.',
    },
    points: {
      en: ['**Path length:** a low Sun shines through far more atmosphere than a high one.', '**Rayleigh scattering** removes blue first, leaving the long wavelengths.', '**Dust and clouds** high up catch that red light, which is why some evenings glow more than others.'],
      ko: ['**빛이 지나는 거리:** 해가 낮을수록 빛이 통과하는 대기가 훨씬 두껍습니다.', '**레일리 산란**이 파란빛을 먼저 걸러 내고 파장이 긴 빛을 남깁니다.', '**먼지와 구름**이 그 붉은빛을 받아 비추기 때문에 어떤 날은 노을이 더 진합니다.'],
    },
    story: {
      en: ['Picture the same sunbeam at noon and at 7 p.m. At noon it drops almost straight down through the air; in the evening it skims sideways through a long slab of atmosphere.', 'Along that long path, air molecules keep scattering the blue part of the light away from the beam (the same effect that makes the daytime sky blue), so by the time it reaches you, mostly red and orange are left. High clouds then act like a screen that catches the colour, which is why a cloudy-edged sunset often looks the most dramatic.'],
      ko: ['같은 햇살을 정오와 저녁 7시에 떠올려 보세요. 정오에는 거의 수직으로 내려오지만, 저녁에는 두꺼운 대기층을 비스듬히 길게 가로질러요.', '그 긴 길을 지나는 동안 공기 분자가 파란빛을 계속 옆으로 흩뜨려요. 낮 하늘을 파랗게 만드는 바로 그 현상이에요. 그래서 눈에 닿을 때쯤엔 붉은빛과 주황빛이 주로 남아요. 높은 구름이 그 빛을 스크린처럼 받아 주면 노을이 유난히 화려해져요.'],
    },
  },
  {
    re: /(?:sea|ocean).*salt|salt.*(?:sea|ocean)|(?:바다|바닷물).*(?:짜|짠)/i,
    short: {
      en: 'Rain slowly dissolves minerals from rocks, rivers carry them to the sea, and when seawater evaporates the salt stays behind. Over millions of years it has built up to about 3.5% salt.',
      ko: '빗물이 암석의 광물을 조금씩 녹이고, 강이 이를 바다로 나르며, 바닷물이 증발할 때 소금은 남습니다. 수백만 년 동안 쌓여 염분이 약 3.5%가 되었습니다.',
    },
    points: {
      en: ['**Source:** weathered rock (sodium) and undersea volcanic vents (chloride).', '**Trap:** evaporation removes water but not salt.', '**Balance:** salt also leaves as sediment, so the level has stayed roughly stable for a very long time.'],
      ko: ['**출처:** 풍화된 암석(나트륨)과 해저 화산 분출구(염소).', '**쌓이는 이유:** 증발은 물만 가져가고 소금은 남깁니다.', '**균형:** 소금도 퇴적물로 빠져나가서 염분은 오랫동안 거의 일정했습니다.'],
    },
    story: {
      en: ['Think of a pot of soup left simmering: the water boils off, the salt doesn’t, and the soup gets saltier. The ocean is that pot, running for hundreds of millions of years.', 'Rain is slightly acidic, so it wears down rock and picks up dissolved minerals such as sodium. Rivers carry them to the sea, volcanic vents on the sea floor add chloride, and the Sun evaporates pure water back into the clouds. The salt stays. Rivers taste fresh only because their water is constantly replaced; the ocean is where everything ends up.'],
      ko: ['뭉근히 끓는 국 냄비를 떠올려 보세요. 물은 날아가도 소금은 남아서 국이 점점 짜지죠. 바다는 그 냄비를 수억 년째 끓이고 있는 셈이에요.', '빗물은 약한 산성이라 암석을 조금씩 녹이며 나트륨 같은 광물을 품어요. 강이 그걸 바다로 나르고, 해저 화산 분출구가 염소를 보태고, 햇볕은 순수한 물만 증발시켜 구름으로 돌려보내요. 소금은 남고요. 강물이 짜지 않은 건 물이 계속 새로 바뀌기 때문이고, 바다는 모든 게 모이는 종착지예요.'],
    },
  },
  {
    re: /leaves.*(?:change|turn|colou?r|red|yellow)|autumn colou?r|fall foliage|단풍|잎.*(?:색|빨갛|노랗|물들)/i,
    short: {
      en: 'In autumn trees stop making chlorophyll, the green pigment; as it breaks down, yellow carotenoids that were there all along show through, and some trees make new red anthocyanins.',
      ko: '가을이 되면 나무가 초록 색소인 엽록소를 더 만들지 않습니다. 엽록소가 분해되면 원래 있던 노란 카로티노이드가 드러나고, 어떤 나무는 붉은 안토시아닌을 새로 만듭니다.',
    },
    points: {
      en: ['**Trigger:** shorter days and cooler nights.', '**Yellow and orange:** carotenoids, hidden under the green all summer.', '**Red:** anthocyanins, made fresh in autumn; sunny days and cool nights make them brightest.'],
      ko: ['**계기:** 짧아지는 낮과 서늘한 밤.', '**노랑과 주황:** 여름 내내 초록에 가려 있던 카로티노이드.', '**빨강:** 가을에 새로 만드는 안토시아닌. 맑은 낮과 서늘한 밤이 이어지면 더 선명합니다.'],
    },
    story: {
      en: ['A ginkgo leaf is a good example: in summer it is green, in autumn it turns gold, yet the gold was in the leaf all along.', 'Summer leaves are packed with chlorophyll, which is green and constantly rebuilt. When days shorten, the tree stops rebuilding it and pulls nutrients back into its branches before dropping the leaf. The green fades first, revealing the yellow carotenoids underneath. Maples go a step further and make red anthocyanins in autumn, which is why a run of sunny days and chilly nights gives the reddest seasons.'],
      ko: ['은행잎이 좋은 예예요. 여름엔 초록이다가 가을엔 노랗게 바뀌는데, 그 노란색은 사실 처음부터 잎 속에 있었어요.', '여름 잎에는 초록색 엽록소가 가득하고, 계속 새로 만들어져요. 낮이 짧아지면 나무는 엽록소 만들기를 멈추고 영양분을 가지로 거둬들인 뒤 잎을 떨어뜨릴 준비를 해요. 초록이 먼저 빠지면서 그 아래 노란 카로티노이드가 드러나요. 단풍나무는 한 걸음 더 나가 가을에 붉은 안토시아닌을 새로 만들어서, 맑은 낮과 쌀쌀한 밤이 이어지는 해에 단풍이 가장 붉어요.'],
    },
  },
  {
    re: /seasons?\b.*(?:why|cause|happen)|(?:why|cause).*seasons|계절.*(?:왜|생기|바뀌|이유)/i,
    short: {
      en: 'Earth’s axis is tilted about 23.5°, so through the year each hemisphere takes turns getting more direct sunlight and longer days. Distance from the Sun is not the cause.',
      ko: '지구 자전축이 약 23.5° 기울어 있어서, 한 해 동안 남반구와 북반구가 번갈아 햇빛을 더 정면으로, 더 오래 받습니다. 태양과의 거리는 원인이 아닙니다.',
    },
    points: {
      en: ['**Angle:** direct light concentrates more energy on each square metre.', '**Day length:** summer days give more hours of heating.', '**Proof it isn’t distance:** Earth is closest to the Sun in early January, during the northern winter.'],
      ko: ['**각도:** 정면으로 비치는 빛일수록 같은 면적에 에너지가 더 몰립니다.', '**낮의 길이:** 여름에는 데워지는 시간이 더 깁니다.', '**거리가 아닌 증거:** 지구는 1월 초, 북반구가 겨울일 때 태양에 가장 가깝습니다.'],
    },
    story: {
      en: ['Hold a torch straight over a table and you get a small, bright circle; tilt it and the same light spreads into a wide, dim oval. That is the whole secret of the seasons.', 'Earth spins on an axis tilted about 23.5°, and the tilt points the same way all year. In June the northern hemisphere leans toward the Sun: the light hits it steeply, like the straight torch, and days are long, so it is summer there and winter in Australia. Six months later it is the other way round. Many people guess it is about distance, but Earth is actually closest to the Sun in January.'],
      ko: ['손전등을 책상 위에서 수직으로 비추면 작고 밝은 원이 생기고, 기울이면 같은 빛이 넓고 흐린 타원으로 퍼져요. 계절의 비밀이 바로 이거예요.', '지구는 약 23.5° 기울어진 축으로 돌고, 그 기울기는 일 년 내내 같은 방향이에요. 6월에는 북반구가 태양 쪽으로 기울어 빛을 수직에 가깝게 받고 낮도 길어서 여름이 되고, 그때 호주는 겨울이에요. 여섯 달 뒤엔 반대가 되고요. 흔히 거리 때문이라고 생각하지만, 지구는 오히려 1월에 태양과 가장 가까워요.'],
    },
  },
  {
    re: /rainbow|무지개/i,
    short: {
      en: 'Sunlight enters raindrops, bends (refracts), reflects off the back of the drop and bends again on the way out; each colour bends by a slightly different amount, so white light fans out into a spectrum at about 42° from the point opposite the Sun.',
      ko: '햇빛이 빗방울에 들어가며 굴절하고, 안쪽 면에서 반사된 뒤 나오면서 다시 굴절합니다. 색마다 꺾이는 정도가 조금씩 달라 흰빛이 펼쳐지고, 태양 반대편 지점에서 약 42° 떨어진 곳에 띠가 생깁니다.',
    },
    points: {
      en: ['**Where to look:** with the Sun behind you and rain in front.', '**Order:** red on the outside, violet on the inside.', '**Double rainbow:** two reflections inside the drop, with the colours reversed.'],
      ko: ['**보는 방향:** 해를 등지고 비가 내리는 쪽을 봅니다.', '**색 순서:** 바깥이 빨강, 안쪽이 보라.', '**쌍무지개:** 빗방울 안에서 두 번 반사되어 색 순서가 뒤집힙니다.'],
    },
    story: {
      en: ['On a sunny afternoon, stand with your back to the Sun and spray a fine mist from a garden hose: a small rainbow appears in the spray.', 'Each tiny drop works like a prism and a mirror at once. Light bends as it enters, bounces off the back of the drop and bends again as it leaves. Red bends a little less than violet, so the colours separate, and each drop sends one colour to your eye depending on its angle. That is also why no two people see exactly the same rainbow: each of you gets light from a different set of drops.'],
      ko: ['맑은 오후에 해를 등지고 호스로 물을 안개처럼 뿌려 보세요. 물보라 속에 작은 무지개가 떠요.', '작은 물방울 하나하나가 프리즘과 거울 노릇을 동시에 해요. 빛이 들어가며 꺾이고, 방울 안쪽 면에서 튕긴 뒤 나오면서 또 꺾여요. 빨강은 보라보다 조금 덜 꺾여서 색이 갈라지고, 각도에 따라 방울마다 한 가지 색을 눈에 보내요. 그래서 두 사람이 보는 무지개도 사실은 서로 다른 물방울에서 온 빛이에요.'],
    },
  },
  {
    re: /ice.*float|얼음.*(?:뜨|떠)/i,
    short: {
      en: 'Ice is about 9% less dense than liquid water: when water freezes, hydrogen bonds lock the molecules into an open hexagonal lattice that takes up more space.',
      ko: '얼음은 물보다 밀도가 약 9% 낮습니다. 물이 얼 때 수소 결합이 분자들을 빈틈 많은 육각형 구조로 고정해 부피가 커지기 때문입니다.',
    },
    points: {
      en: ['**Unusual:** most substances are denser as solids than as liquids.', '**Result:** lakes freeze from the top, insulating the water below so fish survive winter.', '**Side effect:** freezing water expands and can burst pipes.'],
      ko: ['**특이한 성질:** 대부분의 물질은 고체일 때 더 무겁습니다.', '**덕분에:** 호수는 위부터 얼어 아래 물을 감싸 주고, 물고기가 겨울을 납니다.', '**부작용:** 얼면서 부피가 늘어 수도관이 터지기도 합니다.'],
    },
    story: {
      en: ['Fill a plastic bottle to the brim with water, cap it and freeze it overnight: by morning it bulges. The same water now takes more room, and that is why ice floats.', 'In liquid water the molecules tumble close together. As they freeze, hydrogen bonds hold each one at fixed angles to its neighbours, building an airy hexagonal lattice (the same sixfold pattern you see in snowflakes). More space for the same mass means lower density, about 0.92 g/cm³, so ice rides on top with roughly a tenth of it above the surface.'],
      ko: ['페트병에 물을 가득 채워 뚜껑을 닫고 하룻밤 얼려 보세요. 아침이면 병이 불룩해져 있어요. 같은 물이 더 많은 자리를 차지하게 된 거고, 얼음이 뜨는 이유도 바로 이거예요.', '물일 때 분자들은 서로 가까이 뒤엉켜 움직여요. 얼기 시작하면 수소 결합이 분자마다 이웃과 정해진 각도를 지키게 해서, 눈송이에서 보이는 것 같은 육각형의 성긴 구조가 생겨요. 질량은 같은데 부피가 커지니 밀도가 약 0.92g/cm³로 낮아지고, 그래서 얼음은 10분의 1쯤만 물 위로 내민 채 떠요.'],
    },
  },
  {
    re: /yawn|하품/i,
    short: {
      en: 'Nobody knows for certain. The best-supported idea is that yawning helps cool the brain; the popular “we need more oxygen” explanation has not held up in experiments.',
      ko: '확실히 밝혀지지는 않았습니다. 가장 지지를 받는 가설은 뇌의 온도를 식힌다는 것이고, 흔히 말하는 “산소가 부족해서”라는 설명은 실험에서 뒷받침되지 않았습니다.',
    },
    points: {
      en: ['**Brain cooling:** people yawn less when the air is hotter than the body and more in cool air.', '**State change:** yawns cluster when we switch between sleep, boredom and alertness.', '**Contagion:** seeing a yawn triggers one, more often among people who know each other.'],
      ko: ['**뇌 냉각:** 체온보다 더운 곳에서는 하품이 줄고, 서늘한 곳에서는 늘어납니다.', '**상태 전환:** 잠, 지루함, 각성 사이를 오갈 때 하품이 몰립니다.', '**전염성:** 남의 하품을 보면 따라 하게 되고, 친한 사이일수록 더 그렇습니다.'],
    },
    story: {
      en: ['Honest answer first: scientists still argue about this one.', 'A well-known experiment tested the oxygen idea by having people breathe air rich in oxygen or in carbon dioxide, and their yawning didn’t change. Newer studies point to temperature: people yawn more on mild days than on very hot ones, and a deep yawn pulls in cool air and speeds blood flow to the head, so brain cooling is the leading explanation. You have probably also noticed the contagious part: reading this far may already have made you yawn.'],
      ko: ['먼저 솔직히 말하면, 과학자들도 아직 결론을 내리지 못한 질문이에요.', '산소 가설은 사람들에게 산소가 많은 공기나 이산화탄소가 많은 공기를 마시게 하는 실험으로 확인했는데, 하품 횟수는 달라지지 않았어요. 최근 연구들은 온도를 가리켜요. 아주 더운 날보다 선선한 날 하품이 더 잦고, 크게 하품하면 서늘한 공기가 들어오고 머리로 가는 혈류가 빨라져서 뇌를 식힌다는 설명이 가장 유력해요. 전염성도 잘 알려져 있죠. 여기까지 읽으면서 벌써 하품이 나왔을지도 몰라요.'],
    },
  },
  {
    re: /(?:plane|aeroplane|airplane|aircraft).*(?:fly|stay up|lift)|비행기.*(?:뜨|날|떠)/i,
    short: {
      en: 'Wings are shaped and angled to push air downward; by Newton’s third law the air pushes the wing up. That upward force, lift, grows with speed, so engines only need to keep the plane moving fast enough.',
      ko: '날개는 모양과 각도로 공기를 아래로 밀어 내고, 뉴턴의 제3법칙에 따라 공기가 날개를 위로 밉니다. 이 양력은 속도가 빠를수록 커져서, 엔진은 비행기를 충분히 빠르게 움직이기만 하면 됩니다.',
    },
    points: {
      en: ['**Lift:** wing shape and angle of attack turn airflow downward.', '**Pressure:** air over the top moves faster and its pressure drops, adding to the push from below.', '**Thrust vs drag:** engines overcome air resistance; lift must match the plane’s weight.'],
      ko: ['**양력:** 날개 모양과 받음각이 공기 흐름을 아래로 꺾습니다.', '**압력 차:** 날개 위쪽 공기가 더 빨리 흐르며 압력이 낮아져 아래에서 미는 힘을 더합니다.', '**추력과 항력:** 엔진은 공기 저항을 이기고, 양력은 무게와 맞먹어야 합니다.'],
    },
    story: {
      en: ['Next time you are a passenger in a car, hold your flat hand out of the window and tilt the front edge up slightly: your hand rises. That is a wing.', 'Tilted into the wind, your hand deflects air downward, and the air pushes back up. An aircraft wing does the same more efficiently: its curved shape and slight upward angle send a large mass of air down every second, and the faster air over the top has lower pressure, which adds to the lift. At take-off speed that force exceeds the plane’s weight, and it climbs.'],
      ko: ['다음에 차를 탈 일이 있으면 창밖으로 손바닥을 펴서 내밀고 앞쪽을 살짝 들어 보세요. 손이 위로 떠올라요. 그게 바로 날개예요.', '바람을 향해 기울인 손은 공기를 아래로 밀고, 공기는 그 반작용으로 손을 위로 밀어요. 비행기 날개는 이걸 훨씬 효율적으로 해요. 휘어진 모양과 살짝 들린 각도로 매초 엄청난 양의 공기를 아래로 보내고, 위쪽의 빠른 공기는 압력이 낮아 양력을 보태요. 이륙 속도에 이르면 그 힘이 비행기 무게보다 커져서 떠오르는 거예요.'],
    },
  },
  {
    re: /thunder|lightning|천둥|번개/i,
    short: {
      en: 'Lightning is a giant electric spark between charged parts of a storm cloud and the ground; it heats the air to about 30,000 °C in a split second, and the air’s explosive expansion is the thunder.',
      ko: '번개는 뇌운 속 전하가 쌓인 부분과 땅 사이에 튀는 거대한 전기 불꽃입니다. 순간적으로 공기를 약 3만 °C까지 달구고, 그 공기가 폭발하듯 팽창하는 소리가 천둥입니다.',
    },
    points: {
      en: ['**Charge:** colliding ice and hail in the cloud separate positive and negative charge.', '**Sound lags light:** sound covers about 1 km in 3 seconds, so count the gap to estimate distance.', '**Safety:** if you can hear thunder, you are close enough to be struck; go indoors.'],
      ko: ['**전하 분리:** 구름 속 얼음 알갱이와 우박이 부딪히며 양전하와 음전하가 갈라집니다.', '**소리는 늦게 도착:** 소리는 3초에 약 1km를 가므로, 번쩍임과 천둥 사이 초를 세면 거리를 짐작할 수 있습니다.', '**안전:** 천둥이 들리면 벼락을 맞을 수 있는 거리입니다. 실내로 들어가세요.'],
    },
    story: {
      en: ['When you pull off a wool jumper in the dark and see tiny sparks crackle, you are watching a miniature thunderstorm.', 'Inside a storm cloud, ice crystals and soft hail collide millions of times, rubbing charge apart much like the jumper. When the difference grows large enough, it discharges as lightning, heating a channel of air hotter than the Sun’s surface. The air expands so violently that it makes a shock wave: the crack or rumble of thunder. Count the seconds between flash and boom and divide by three, and you have the distance in kilometres.'],
      ko: ['어두운 곳에서 털 스웨터를 벗을 때 타닥타닥 작은 불꽃이 튀는 걸 본 적 있나요? 그게 아주 작은 뇌우예요.', '뇌운 속에서는 얼음 결정과 싸락눈이 수없이 부딪히며, 스웨터처럼 전하를 떼어 놓아요. 그 차이가 충분히 커지면 번개로 한꺼번에 방전되면서 공기 통로를 태양 표면보다 뜨겁게 달궈요. 공기가 너무 급격히 팽창해서 충격파가 생기는데, 그게 우르릉 하는 천둥이에요. 번쩍임과 소리 사이 초를 세서 3으로 나누면 몇 km 떨어졌는지 알 수 있어요.'],
    },
  },
];

/** The topic a question is about, if the demo models know it. */
export const topicFor = (text: string): Topic | undefined => TOPICS.find((t) => t.re.test(text));
