import type { Language } from '@duet/contracts';
import type { ChatRequest } from '../provider.ts';
import type { Persona } from './context.ts';
import { createCtx } from './context.ts';
import { TOOL_WRITERS } from './tools/index.ts';

const NOTICE: Record<Language, Record<Persona, string>> = {
  en: { atlas: '> *Demo model answer: a built-in sample, no live model behind it.*', sonnet: '*(A built-in demo model wrote this sample answer.)*' },
  ko: { atlas: '> *데모 모델의 예시 답변입니다 (실제 모델이 아닙니다).*', sonnet: '*(내장 데모 모델이 쓴 예시 답변이에요.)*' },
};

/** Names of models and makers, scrubbed from echoed input so a demo answer never names one. */
const MAKERS = /[\w-]*(?:gpt|openai|claude|anthropic)[\w.-]*|오픈\s?AI|오픈에이아이|챗지피티|지피티|클로드|앤트로픽/gi;

/**
 * The whole answer a demo model gives: a pure, deterministic function of the model name and the
 * visitor's question. `createDemoProvider` streams it; tests and the moderation check read it whole.
 */
export function demoAnswer(model: string, q: ChatRequest['context']): string {
  const c = createCtx(model, q);
  const writers = TOOL_WRITERS[q.tool] ?? TOOL_WRITERS['anything-question'];
  const body = writers?.[c.persona][q.lang](c) ?? '';
  const text = c.persona === 'atlas' ? `${NOTICE[q.lang].atlas}\n\n${body}` : `${body}\n\n${NOTICE[q.lang].sonnet}`;
  return text
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .replace(MAKERS, q.lang === 'ko' ? '[모델]' : '[a model]');
}
