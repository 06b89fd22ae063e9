import { findTool } from '@duet/contracts';
import { describe, expect, it } from 'vitest';
import type { EarlierTurn } from '../store/battle.repo.ts';
import { requestTexts, turnRequest } from './conversation.ts';

const tool = findTool('anything-question')!;
const image = { mimeType: 'image/png' as const, data: Buffer.from('png') };
const first: EarlierTurn = { turn: 1, text: 'Name a colour of the sea.', inputs: {}, image, answers: { a: 'Blue.', b: 'Green.' } };
const second: EarlierTurn = { turn: 2, text: 'Which shade?', inputs: {}, image: undefined, answers: { a: 'Deep blue.' } };

describe('a turn of a conversation', () => {
  it('asks a first question as the tool prompts it', () => {
    const r = turnRequest(tool, { text: 'Name a colour of the sea.', inputs: {}, lang: 'en' }, undefined, [], 'a');
    const prompt = tool.prompt({ inputs: {}, text: 'Name a colour of the sea.', hasImage: false, lang: 'en' });
    expect(r).toMatchObject({ system: prompt.system, user: prompt.user, maxTokens: tool.maxTokens });
    expect(r.history).toBeUndefined();
  });

  it("gives a follow-up the first question as prompted, its image, every earlier question and this side's own answers", () => {
    const opening = tool.prompt({ inputs: {}, text: first.text, hasImage: true, lang: 'en' });
    const a = turnRequest(tool, { text: 'And at night?', inputs: {}, lang: 'en' }, undefined, [first, second], 'a');
    expect(a.system).toBe(opening.system);
    expect(a.history).toEqual([
      { user: opening.user, image, assistant: 'Blue.' },
      { user: 'Which shade?', image: undefined, assistant: 'Deep blue.' },
    ]);
    expect(a.user).toBe('And at night?');
    expect(a.context).toMatchObject({ text: 'And at night?', inputs: {} });
    // Side b gave no answer to the second question: its turn says so with an empty answer.
    const b = turnRequest(tool, { text: 'And at night?', inputs: {}, lang: 'en' }, undefined, [first, second], 'b');
    expect(b.history?.map((t) => t.assistant)).toEqual(['Green.', '']);
    expect(requestTexts(b)).toEqual([opening.system, opening.user, 'Green.', 'Which shade?', '', 'And at night?']);
  });
});
