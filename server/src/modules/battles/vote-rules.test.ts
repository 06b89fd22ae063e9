import { describe, expect, it } from 'vitest';
import { mentionedModelName, voteCountability } from './vote-rules.ts';

const ok = { text: 'Here is a poem about rain.', finishReason: 'stop' };
const facts = (over: Partial<Parameters<typeof voteCountability>[0]> = {}) => ({
  mode: 'blind' as const,
  answers: [ok, ok],
  ...over,
});

describe('mentionedModelName', () => {
  it('finds models and makers in English, whatever the case or version', () => {
    expect(mentionedModelName('As GPT-4o, I think')).toBe('gpt-4o');
    expect(mentionedModelName('I was trained by OpenAI.')).toBe('openai');
    expect(mentionedModelName('I am Claude, made by Anthropic')).toBe('claude');
    expect(mentionedModelName('gpt4 says hi')).toBe('gpt');
  });

  it('finds them in Korean', () => {
    expect(mentionedModelName('저는 클로드입니다')).toBe('클로드');
    expect(mentionedModelName('챗GPT와 비교하면')).not.toBeNull();
    expect(mentionedModelName('앤트로픽이 만든 모델')).toBe('앤트로픽');
  });

  it('leaves ordinary words alone', () => {
    expect(mentionedModelName('The pyramids of Egypt')).toBeNull();
    expect(mentionedModelName('Here is a sonnet, then a haiku, an opus for the bard')).toBeNull();
    expect(mentionedModelName('봄비가 내리는 창가')).toBeNull();
    expect(mentionedModelName('이 드라마를 추천해요')).toBeNull();
  });
});

describe('voteCountability', () => {
  it('counts a clean blind battle', () => {
    expect(voteCountability(facts())).toEqual({ counted: true, reason: null });
  });

  it('never counts a named-mode battle', () => {
    expect(voteCountability(facts({ mode: 'named' }))).toEqual({ counted: false, reason: 'named_mode' });
  });

  it('does not count when a side failed or was cancelled', () => {
    expect(voteCountability(facts({ answers: [ok, { text: 'x', finishReason: 'error' }] })).reason).toBe('side_failed');
    expect(voteCountability(facts({ answers: [{ text: 'x', finishReason: 'cancelled' }, ok] })).reason).toBe('side_failed');
    expect(voteCountability(facts({ answers: [ok, { text: 'long', finishReason: 'length' }] })).counted).toBe(true);
  });

  it('does not count when an answer names a model', () => {
    expect(voteCountability(facts({ answers: [ok, { text: 'As Claude, I…', finishReason: 'stop' }] })).reason).toBe('model_named');
  });
});
