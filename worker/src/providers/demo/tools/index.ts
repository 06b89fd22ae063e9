import type { ToolWriters } from '../context.ts';
import { accountingSolving } from './accounting-solving.ts';
import { anythingQuestion } from './anything-question.ts';
import { docent } from './docent.ts';
import { excelSolving } from './excel-solving.ts';
import { gameEndingWord } from './game-ending-word.ts';
import { influencerWriting } from './influencer-writing.ts';
import { instagramReelsIdea } from './instagram-reels-idea.ts';
import { makeLyrics } from './make-lyrics.ts';
import { mathSolve } from './math-solve.ts';
import { netflixRecommend } from './netflix-recommend.ts';
import { quizSolving } from './quiz-solving.ts';
import { rapLyrics } from './rap-lyrics.ts';
import { titleAcademy } from './title-academy.ts';

/** Each tool's answer writers, by the tool's slug. */
export const TOOL_WRITERS: Record<string, ToolWriters> = {
  'title-academy': titleAcademy,
  makeLyrics,
  'quiz-solving': quizSolving,
  'game-ending-word': gameEndingWord,
  'netflix-recommend': netflixRecommend,
  'instagram-reels-idea': instagramReelsIdea,
  'math-solve': mathSolve,
  'influencer-writing': influencerWriting,
  docent,
  'rap-lyrics': rapLyrics,
  'accounting-solving': accountingSolving,
  'excel-solving': excelSolving,
  'anything-question': anythingQuestion,
};
