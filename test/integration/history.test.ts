import type { CreateBattleResponse, HistoryResponse, SpecHistoryResponse, Winner } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postBattleWithImage, postJson, TINY_PNG } from '../helpers/api.ts';
import { BattleViewer, connectSocket, watchToEnd } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';

/** History on the built-in demo models (the configuration a fresh install runs with). */
describe('history of a tool', () => {
  let duet: TestDuet;
  const voted: Array<{ id: string; text: string; winner: Winner; modelA: string }> = [];

  const runAndVote = async (text: string, winner: Winner) => {
    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'quiz-solving', text, lang: 'en' });
    await watchToEnd(duet.url, res.body.battleId);
    const vote = await postJson(`${duet.url}/api/battles/${res.body.battleId}/vote`, { winner, voteToken: res.body.voteToken });
    expect(vote.status).toBe(200);
    const { rows } = await duet.db.pool.query('SELECT model_a FROM battles WHERE id = $1', [res.body.battleId]);
    voted.push({ id: res.body.battleId, text, winner, modelA: rows[0].model_a });
  };

  beforeAll(async () => {
    duet = await startTestDuet({ env: { DEMO_SPEED: '400' } });
    const winners: Winner[] = ['a', 'b', 'a', 'tie', 'both_bad', 'a', 'b'];
    for (const [i, w] of winners.entries()) await runAndVote(`Question number ${i}?`, w);
    // A finished battle without a vote is not a result yet.
    const unvoted = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'quiz-solving', text: 'Unvoted?' });
    const socket = await connectSocket(duet.url);
    await new BattleViewer(socket, unvoted.body.battleId).join();
    socket.disconnect();
  }, 60_000);
  afterAll(async () => {
    await duet?.close();
  });

  it('lists voted battles newest first in pages, with no repeats or gaps across pages', async () => {
    const seen: HistoryResponse['list'] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await getJson<HistoryResponse>(`${duet.url}/api/tools/quiz-solving/history?limit=3${q}`);
      expect(res.status).toBe(200);
      expect(res.body.list.length).toBeLessThanOrEqual(3);
      // Win rates come with the first page only.
      expect(res.body.winRates).toHaveLength(pages === 0 ? 2 : 0);
      seen.push(...res.body.list);
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.map((e) => e.id)).toEqual([...voted].reverse().map((v) => v.id));
    const newest = seen[0]!;
    const last = voted.at(-1)!;
    expect(newest.question.text).toBe(last.text);
    expect(newest.winner).toBe(last.winner);
    expect(newest.sides.a.model).toBe(last.modelA);
    expect(newest.sides.a.text.length).toBeGreaterThan(20);
    expect(newest.sides.b.stats.finishReason).toBe('stop');
    expect(Date.parse(newest.createdAt)).not.toBeNaN();
  });

  it('answers win rates per model from the counters', async () => {
    const res = await getJson<HistoryResponse>(`${duet.url}/api/tools/quiz-solving/history`);
    expect(res.body.winRates).toHaveLength(2);
    const expected = new Map<string, { wins: number; battles: number; ties: number; bothBad: number }>();
    const bump = (model: string, key: 'wins' | 'ties' | 'bothBad' | null) => {
      const s = expected.get(model) ?? { wins: 0, battles: 0, ties: 0, bothBad: 0 };
      s.battles += 1;
      if (key) s[key] += 1;
      expected.set(model, s);
    };
    const { rows } = await duet.db.pool.query<{ id: string; model_a: string; model_b: string }>('SELECT id, model_a, model_b FROM battles');
    for (const v of voted) {
      const b = rows.find((r) => r.id === v.id)!;
      bump(b.model_a, v.winner === 'a' ? 'wins' : v.winner === 'tie' ? 'ties' : v.winner === 'both_bad' ? 'bothBad' : null);
      bump(b.model_b, v.winner === 'b' ? 'wins' : v.winner === 'tie' ? 'ties' : v.winner === 'both_bad' ? 'bothBad' : null);
    }
    for (const rate of res.body.winRates) {
      const e = expected.get(rate.model)!;
      expect(rate).toMatchObject({ battles: e.battles, wins: e.wins, ties: e.ties, bothBad: e.bothBad });
      expect(rate.winRate).toBeCloseTo((100 * e.wins) / e.battles, 1);
    }
  });

  it('serves the specification’s list call with its field names', async () => {
    const res = await getJson<SpecHistoryResponse>(`${duet.url}/api/v2/user/duet/list/quiz-solving-duet`);
    expect(res.status).toBe(200);
    expect(res.body.data.list.map((e) => e.id)).toEqual([...voted].reverse().map((v) => v.id));
    const rates = (await getJson<HistoryResponse>(`${duet.url}/api/tools/quiz-solving/history`)).body.winRates;
    expect(res.body.data.gpt4WimPercent).toBe(rates.find((r) => r.family === 'gpt')?.winRate);
    expect(res.body.data.claude3WinPercent).toBe(rates.find((r) => r.family === 'claude')?.winRate);
    expect(res.body.data.gpt4WimPercent + res.body.data.claude3WinPercent).toBeLessThanOrEqual(100);

    const other = await getJson<SpecHistoryResponse>(`${duet.url}/api/v2/user/duet/list/docent`);
    expect(other.body.data).toEqual({ list: [], gpt4WimPercent: 0, claude3WinPercent: 0 });
    expect((await getJson(`${duet.url}/api/v2/user/duet/list/horoscope`)).status).toBe(404);
    expect((await getJson(`${duet.url}/api/v2/user/other/list/docent`)).status).toBe(404);
  });

  it('refuses a cursor it did not give out', async () => {
    const res = await getJson<{ error: { code: string } }>(`${duet.url}/api/tools/quiz-solving/history?cursor=garbage`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect((await getJson(`${duet.url}/api/tools/horoscope/history`)).status).toBe(404);
  });

  it('shows the question image in history', async () => {
    const res = await postBattleWithImage(duet.url, { tool: 'docent', lang: 'ko' }, { data: TINY_PNG, filename: 'p.png', type: 'image/png' });
    const final = await watchToEnd(duet.url, res.body.battleId);
    // The demo models answer in Korean for a Korean visitor.
    expect(final.sides.a.text).toMatch(/[가-힣]/);
    await postJson(`${duet.url}/api/battles/${res.body.battleId}/vote`, { winner: 'tie', voteToken: res.body.voteToken });
    const history = await getJson<HistoryResponse>(`${duet.url}/api/tools/docent-duet/history`);
    expect(history.body.list[0]?.question.imageUrl).toBe(`/api/battles/${res.body.battleId}/image`);
  });
});
