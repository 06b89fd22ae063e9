/**
 * Word chain. Atlas plays to win: it picks the word whose last letter is hardest to follow and
 * reports the move like a referee. Sonnet plays to keep the game going: it picks an easy letter
 * to leave and explains its word with an example sentence.
 */
import type { Ctx, ToolWriters } from '../context.ts';
import { jo, josa } from '../korean.ts';
import { md } from '../markdown.ts';
import type { Move } from '../word-chain.ts';
import { playMove } from '../word-chain.ts';

const move = (c: Ctx): Move => playMove(c.text, c.lang, c.persona === 'atlas' ? 'trap' : 'friendly');

/** Korean rule notes on the visitor's word. */
const notesKo = (m: Move): string[] => [
  ...(m.oneLetter ? ['한 글자 단어는 원래 안 되지만 이번만 이어 갈게요.'] : []),
  ...(m.severalWords ? ['단어 하나만 내야 하니, 마지막 단어로 이어 갈게요.'] : []),
];
const notesEn = (m: Move): string[] => [
  ...(m.oneLetter ? ['One-letter words don’t normally count, but I’ll allow it this once.'] : []),
  ...(m.severalWords ? ['The rules ask for a single word, so I chained on the last one.'] : []),
];

function atlasKo(m: Move): string {
  if (!m.last) return md('## 끝말잇기', '이어 갈 글자가 없습니다. 글자로 된 단어 하나를 보내 주세요.');
  const from = `‘${m.last}’${m.alt ? `(두음법칙: ‘${m.alt}’)` : ''}`;
  if (!m.reply) return md('## 끝말잇기', `${from}${josa(m.alt ?? m.last, '으로')} 시작하는 단어를 찾지 못했습니다. **이번 판은 당신의 승리입니다** 🎉`, '', '새 단어로 다시 시작할까요?');
  const viaDueum = m.alt !== undefined && m.reply[0].startsWith(m.alt);
  return md(
    `**${m.reply[0]}**`,
    '',
    `- **뜻:** ${m.reply[1]}`,
    `- **연결:** ${m.given} → ${m.reply[0]} (‘${m.last}’${viaDueum ? ` → ‘${m.alt}’, 두음법칙` : ''})`,
    `- **다음 글자:** ‘${m.next}’ (${m.hard ? '이어 갈 단어가 거의 없는 글자' : '이어 갈 단어가 있는 글자'})`,
    ...notesKo(m).map((n) => `- **규칙:** ${n}`),
    '',
    '### 규칙 요약',
    '앞 단어의 끝 글자로 시작 (두음법칙 허용) · 반복, 한 글자 단어, 고유 명사 금지',
    '',
    `**당신 차례입니다.** ‘${m.next}’${josa(m.next ?? '', '으로')} 시작하는 단어를 주세요.`,
  );
}

function sonnetKo(m: Move): string {
  if (!m.last) return md('음, 이어 갈 글자를 찾지 못했어요. 글자로 된 단어 하나를 다시 보내 주실래요?');
  if (!m.reply)
    return md(`졌어요! ‘${m.last}’${m.alt ? `(두음법칙으로 ‘${m.alt}’까지)` : ''}${josa(m.alt ?? m.last, '으로')} 시작하는 단어가 아무리 찾아도 안 떠오르네요. 이번 판은 당신 승리예요. 🎉`, '', '새 단어로 한 판 더 할까요?');
  const viaDueum = m.alt !== undefined && m.reply[0].startsWith(m.alt);
  const [word, meaning] = m.reply;
  return md(
    `제 단어는 **${word}**${josa(word, '이에요')}!`,
    '',
    `${jo(word, '은')} ${meaning}${josa(meaning, '을')} 말해요. “${m.given}”의 끝 글자 ‘${m.last}’${viaDueum ? `${josa(m.last, '을')} 두음법칙으로 ‘${m.alt}’${josa(m.alt ?? '', '으로')} 바꿔서` : '에서'} 이어 받았어요.${m.other ? ` ‘${m.other}’도 떠올랐지만 아껴 둘게요.` : ''}`,
    ...notesKo(m),
    '',
    `이제 ‘${m.next}’ 차례예요. ${m.hard ? '조금 얄궂은 글자라 천천히 생각해 보세요.' : '이어 갈 단어가 꽤 있으니 금방 떠오르실 거예요.'} 어떤 단어로 받으실래요?`,
  );
}

function atlasEn(m: Move): string {
  if (!m.last) return md('## Word Chain', 'There is no letter to chain from. Send one word made of letters.');
  if (!m.reply) return md('## Word Chain', `No word starting with “${m.last}” is in my list, so **you win this round** 🎉`, '', 'Start a new chain with any word.');
  return md(
    `**${m.reply[0]}**`,
    '',
    `- **Meaning:** ${m.reply[1]}`,
    `- **Chain:** ${m.given} → ${m.reply[0]} (on “${m.last}”)`,
    `- **Next letter:** “${m.next}” (${m.hard ? 'few words start with it' : 'a common starting letter'})`,
    ...notesEn(m).map((n) => `- **Rule:** ${n}`),
    '',
    '### Rules recap',
    'Start with the last letter of the previous word · no repeats, one-letter words or proper nouns',
    '',
    `**Your turn.** A word starting with “${m.next}”.`,
  );
}

function sonnetEn(m: Move): string {
  if (!m.last) return md('Hmm, I couldn’t find a letter to build on there. Could you send a single word spelled with letters?');
  if (!m.reply) return md(`You got me! I can’t think of a word starting with “${m.last}”, so this round is yours. 🎉`, '', 'Shall we start a fresh chain?');
  const [word, meaning] = m.reply;
  return md(
    `My word is **${word}**!`,
    '',
    `That’s ${meaning}. “${m.given}” ends in “${m.last}”, so I picked up right there.${m.other ? ` I was tempted by “${m.other}” too, but I’m saving it for later.` : ''}`,
    ...notesEn(m),
    '',
    `Now you need a word starting with “${m.next}”. ${m.hard ? 'That one is a little mean, so take your time.' : 'There are plenty of those, so I expect a quick comeback.'} What’s your word?`,
  );
}

/** The visitor's language picks the wording; the word's own script picks the word list. */
const write = (c: Ctx): string => {
  const m = move(c);
  if (c.lang === 'ko') return c.persona === 'atlas' ? atlasKo(m) : sonnetKo(m);
  return c.persona === 'atlas' ? atlasEn(m) : sonnetEn(m);
};

export const gameEndingWord: ToolWriters = { atlas: { en: write, ko: write }, sonnet: { en: write, ko: write } };
