import type { HistoryEntry } from '@duet/contracts';
import { describe, expect, it } from 'vitest';
import { previewSvg, questionLine, wrapLines } from './share-preview.ts';

const side = (label: string) => ({ label, model: label.toLowerCase(), family: 'gpt' as const, text: '', stats: { finishReason: 'stop' as const, inputTokens: 1, outputTokens: 1, ttftMs: 1, durationMs: 1 } });
const entry = (text: string, winner: HistoryEntry['winner'] = 'a', labels: [string, string] = ['Atlas', 'Sonnet']): HistoryEntry => ({
  id: '00000000-0000-4000-8000-000000000000',
  tool: 'makeLyrics',
  createdAt: '2026-11-29T00:00:00.000Z',
  votedAt: '2026-11-29T00:00:00.000Z',
  winner,
  question: { text, inputs: {}, imageUrl: null },
  sides: { a: side(labels[0]), b: side(labels[1]) },
});

describe('the share preview', () => {
  it('keeps a short line as it is', () => {
    expect(wrapLines('A poem about rain', 20, 2)).toEqual(['A poem about rain']);
  });

  it('wraps English at spaces and ends a cut text with an ellipsis after a whole word', () => {
    const lines = wrapLines('Write a short poem about watching the rain from a window on a quiet Sunday afternoon with a hopeful ending', 20, 2);
    expect(lines).toHaveLength(2);
    expect(lines[0]?.endsWith(' ')).toBe(false);
    expect(lines[1]).toMatch(/[a-z]…$/);
    expect(lines.join(' ')).toMatch(/^Write a short poem/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
  });

  it('breaks Korean anywhere, each line about twenty square characters wide', () => {
    const lines = wrapLines('비 오는 날 창밖을 보며 떠오르는 생각들을 주제로 잔잔하지만 마음을 울리는 시를 써 주세요 제목도 붙여 주시고', 20, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.endsWith('…')).toBe(true);
    for (const l of lines) expect([...l.replace(/ /g, '')].length).toBeLessThanOrEqual(21);
  });

  it('shows the first line with words, or the keywords when there is none', () => {
    expect(questionLine(entry('\n\n  First line  \nsecond'))).toBe('First line');
    expect(questionLine({ ...entry(''), question: { text: '', inputs: { keywords: ['rain', 'sea'] }, imageUrl: null } })).toBe('#rain #sea');
  });

  it('escapes the question and the labels, and marks only the winner', () => {
    const svg = previewSvg(entry('<script>alert("x")</script> & co', 'b', ['A&B <x>', 'Sonnet']), 'en');
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; co');
    expect(svg).toContain('A&#38;B &#60;x&#62;');
    expect(svg.match(/>Picked</g)).toHaveLength(1);
    expect(previewSvg(entry('Tie?', 'tie'), 'ko')).not.toContain('>선택<');
    expect(previewSvg(entry('Tie?', 'tie'), 'ko')).toContain('무승부');
  });
});
