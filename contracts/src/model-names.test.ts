import { describe, expect, it } from 'vitest';
import { mentionedModelName } from './model-names.ts';

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
