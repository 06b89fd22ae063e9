import type { HistoryEntry } from '@duet/contracts';
import type { Language } from '@duet/contracts/limits';

/**
 * The words the gateway itself writes about a shared battle: its page's title and description (what
 * a link preview shows) and the preview image. The page's own words are the client's.
 */
export interface ShareTexts {
  title: (a: string, b: string) => string;
  verdictWinner: (label: string) => string;
  verdictTie: string;
  verdictBothBad: string;
  /** After the verdict in the description. */
  invitation: string;
  imageTagline: string;
  /** The preview's line for a question with no words (a photo alone). */
  imageQuestion: string;
  winnerBadge: string;
  imageAlt: (a: string, b: string) => string;
}

const TEXTS: Record<Language, ShareTexts> = {
  en: {
    title: (a, b) => `${a} vs ${b} · Duet`,
    verdictWinner: (label) => `The visitor picked ${label}.`,
    verdictTie: 'The visitor called it a tie.',
    verdictBothBad: 'The visitor found both answers bad.',
    invitation: 'Ask your own question and pick the better answer on Duet.',
    imageTagline: 'Two AI models, one question',
    imageQuestion: 'A question about a photo',
    winnerBadge: 'Picked',
    imageAlt: (a, b) => `${a} against ${b} on Duet, with the question and the verdict`,
  },
  ko: {
    title: (a, b) => `${a} vs ${b} · Duet`,
    verdictWinner: (label) => `방문자는 ${label}의 답을 골랐어요.`,
    verdictTie: '방문자는 무승부로 골랐어요.',
    verdictBothBad: '방문자는 두 답 모두 별로라고 했어요.',
    invitation: 'Duet에서 직접 질문하고 더 나은 답을 골라 보세요.',
    imageTagline: '두 AI 모델, 하나의 질문',
    imageQuestion: '사진에 대한 질문',
    winnerBadge: '선택',
    imageAlt: (a, b) => `Duet에서 ${a}와 ${b}의 대결: 질문과 결과`,
  },
};

export const shareTexts = (lang: Language): ShareTexts => TEXTS[lang];

/** The verdict in a sentence: who the visitor picked, or a tie, or both bad. */
export function verdictOf(entry: HistoryEntry, t: ShareTexts): string {
  if (entry.winner === 'a' || entry.winner === 'b') return t.verdictWinner(entry.sides[entry.winner].label);
  return entry.winner === 'tie' ? t.verdictTie : t.verdictBothBad;
}

/** Text made safe inside HTML or SVG, text and attribute values alike: the visitor's and the models' words never become markup. */
export const escapeMarkup = (s: string): string => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
