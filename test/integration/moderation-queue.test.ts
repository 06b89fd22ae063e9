// Over 300 lines on purpose: the queue's states, paging, decisions and refusals share one Duet and its battles.
import { randomUUID } from 'node:crypto';
import type { CreateBattleResponse, ErrorResponse, HistoryResponse, ModerationQueuePage } from '@duet/contracts';
import { ZErrorResponseSchema, ZModerationQueuePageSchema } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postBattleWithImage, postJson, storedImage, TINY_PNG } from '../helpers/api.ts';
import { watchToEnd } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

const ADMIN_TOKEN = 'operator-'.padEnd(40, 'x');

interface Call<T> {
  status: number;
  body: T & ErrorResponse;
  headers: Headers;
}

/** An operator's call: the token unless `authorization` says otherwise (null: none), a JSON body when given. */
async function operatorCall<T>(
  url: string,
  init: { method?: string; body?: unknown; rawBody?: string; contentType?: string; authorization?: string | null } = {},
): Promise<Call<T>> {
  const headers: Record<string, string> = {};
  const authorization = init.authorization === undefined ? `Bearer ${ADMIN_TOKEN}` : init.authorization;
  if (authorization !== null) headers.authorization = authorization;
  if (init.body !== undefined || init.contentType !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined && init.rawBody === undefined ? 'GET' : 'POST'),
    headers,
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  return { status: res.status, body: (await res.json()) as T & ErrorResponse, headers: res.headers };
}

interface BattleRow {
  moderation: string;
  moderated_by: string | null;
  moderation_reason: string | null;
  moderation_categories: string[];
}

describe('the operators’ moderation queue', () => {
  let duet: TestDuet;
  /** Flagged by the word list, oldest first. */
  const flagged: string[] = [];
  /** Passed by the word list. */
  let clean: string;
  /** Passed, with an image. */
  let pictured: string;

  const api = (path: string) => `${duet.url}/api${path}`;
  const queue = async (query = '') => {
    const res = await operatorCall<ModerationQueuePage>(api(`/admin/moderation${query}`));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ZModerationQueuePageSchema.parse(res.body);
  };
  const decide = (id: string, action: 'approve' | 'takedown' | 'restore', body?: unknown, authorization?: string | null) =>
    operatorCall<{ battleId: string; moderation: string }>(api(`/admin/battles/${id}/${action}`), { method: 'POST', body, authorization });
  const historyIds = async (tool: string) => {
    const res = await getJson<HistoryResponse>(api(`/tools/${tool}/history?limit=50`));
    expect(res.status).toBe(200);
    return res.body.list.map((e) => e.id);
  };
  const rowOf = async (id: string) =>
    (await duet.db.pool.query<BattleRow>('SELECT moderation, moderated_by, moderation_reason, moderation_categories FROM battles WHERE id = $1', [id])).rows[0]!;
  const auditCount = async () => (await duet.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM operator_audit')).rows[0]!.n;

  /** Runs a battle to its end, votes on it and waits for the word list's decision. */
  async function decided(created: { status: number; body: CreateBattleResponse }): Promise<string> {
    expect(created.status).toBe(202);
    const id = created.body.battleId;
    await watchToEnd(duet.url, id);
    expect((await postJson(api(`/battles/${id}/vote`), { winner: 'a', voteToken: created.body.voteToken })).status).toBe(200);
    await waitFor(async () => (await rowOf(id)).moderation !== 'pending', { what: `moderation of ${id}` });
    return id;
  }
  const ask = (tool: string, text: string, lang: 'ko' | 'en') => postJson<CreateBattleResponse>(api('/battles'), { tool, text, lang });

  beforeAll(async () => {
    // The periodic sweep out of the way: a battle set back to pending here stays pending.
    duet = await startTestDuet({ env: { ADMIN_TOKEN, MODERATION: 'wordlist', MODERATION_INTERVAL_MS: '600000', DEMO_SPEED: '400' } });
    // One after another: their creation times give the queue's order.
    flagged.push(await decided(await ask('anything-question', '야동 사이트 좀 알려줘', 'ko')));
    flagged.push(await decided(await ask('anything-question', 'I will kill you, tell me how', 'en')));
    flagged.push(await decided(await ask('quiz-solving', 'I could murder you for that quiz answer', 'en')));
    clean = await decided(await ask('anything-question', 'Why is the sky blue?', 'en'));
    pictured = await decided(await postBattleWithImage(duet.url, { tool: 'docent', lang: 'en' }, { data: TINY_PNG, filename: 'p.png', type: 'image/png' }));
  }, 120_000);
  afterAll(async () => {
    await duet?.close();
  });

  it('lists flagged battles newest first, with question, answers, categories and what flagged them', async () => {
    for (const id of flagged) expect((await rowOf(id)).moderation).toBe('flagged');
    expect((await rowOf(clean)).moderation).toBe('ok');

    const page = await queue();
    expect(page.state).toBe('flagged');
    expect(page.battles.map((b) => b.id)).toEqual([...flagged].reverse());
    expect(page.nextCursor).toBeNull();
    const korean = page.battles.find((b) => b.id === flagged[0])!;
    expect(korean).toMatchObject({
      tool: 'anything-question',
      lang: 'ko',
      status: 'finished',
      question: { text: '야동 사이트 좀 알려줘', inputs: {}, hasImage: false, imageUrl: null },
      moderation: { state: 'flagged', categories: ['sexual'], by: 'wordlist', reason: null },
    });
    expect(Date.parse(korean.createdAt)).not.toBeNaN();
    expect(Date.parse(korean.moderation.at!)).not.toBeNaN();
    for (const side of [korean.sides.a, korean.sides.b]) {
      expect(side.model).not.toBe('');
      expect(side.label).not.toBe('');
      expect(side.text).not.toBe('');
      expect(side.finishReason).toBe('stop');
      expect(side.errorCode).toBeNull();
    }
    expect(korean.sides.a.model).not.toBe(korean.sides.b.model);
    expect(page.battles.find((b) => b.id === flagged[1])!.moderation.categories).toEqual(['violence']);
  });

  it('pages through a state with the cursor it gives, and never lists battles of other states', async () => {
    const first = await queue('?state=flagged&limit=2');
    expect(first.battles.map((b) => b.id)).toEqual([flagged[2], flagged[1]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await queue(`?state=flagged&limit=2&cursor=${first.nextCursor}`);
    expect(second.battles.map((b) => b.id)).toEqual([flagged[0]]);
    expect(second.nextCursor).toBeNull();

    const listed = [...(await queue('?state=pending')).battles, ...(await queue('?state=taken_down')).battles].map((b) => b.id);
    expect(listed).not.toContain(clean);
    expect(listed).not.toContain(flagged[0]);
  });

  it('lists pending battles, and approves one only once its answers are stored', async () => {
    // A finished battle moderation has not decided yet (as while the moderation endpoint fails).
    await duet.db.pool.query("UPDATE battles SET moderation = 'pending', moderated_at = NULL, moderated_by = NULL WHERE id = $1", [clean]);
    await duet.stopWorker();
    const waiting = await ask('quiz-solving', 'What is the capital of France?', 'en');
    expect(waiting.status).toBe(202);
    try {
      const page = await queue('?state=pending');
      expect(page.battles.map((b) => b.id)).toEqual([waiting.body.battleId, clean]);
      expect(page.battles[0]).toMatchObject({
        status: 'queued',
        sides: { a: { text: null, finishReason: null, errorCode: null }, b: { text: null } },
        moderation: { state: 'pending', by: null, at: null, reason: null },
      });

      const early = await decide(waiting.body.battleId, 'approve');
      expect(early.status).toBe(409);
      expect(early.body.error.code).toBe('battle_not_finished');
      expect((await rowOf(waiting.body.battleId)).moderation).toBe('pending');

      expect(await historyIds('anything-question')).not.toContain(clean);
      const approved = await decide(clean, 'approve');
      expect(approved.status).toBe(200);
      expect(approved.body).toEqual({ battleId: clean, moderation: 'ok' });
      expect(await historyIds('anything-question')).toContain(clean);
      expect((await queue('?state=pending')).battles.map((b) => b.id)).toEqual([waiting.body.battleId]);
    } finally {
      await duet.startWorker();
    }
  });

  it('approves a flagged battle: public history shows it at once, with who approved it and why', async () => {
    const [id] = flagged;
    expect(await historyIds('anything-question')).not.toContain(id);
    const res = await decide(id!, 'approve', { reason: '  A film title, not a request.  ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ battleId: id, moderation: 'ok' });
    // No wait: the approval raised the tool's history version before it answered.
    expect(await historyIds('anything-question')).toContain(id);
    expect(await rowOf(id!)).toEqual({
      moderation: 'ok',
      moderated_by: 'operator:token',
      moderation_reason: 'A film title, not a request.',
      // What the word list found is kept beside the operator's decision.
      moderation_categories: ['sexual'],
    });
    expect((await queue()).battles.map((b) => b.id)).not.toContain(id);
  });

  it('takes a battle down with a reason, lists it under taken_down with its image, and restores it', async () => {
    expect(await historyIds('docent')).toContain(pictured);
    const down = await decide(pictured, 'takedown', { reason: 'The person in the photo asked.' });
    expect(down.status).toBe(200);
    expect(down.body).toEqual({ battleId: pictured, moderation: 'taken_down' });
    expect(await historyIds('docent')).not.toContain(pictured);
    expect((await fetch(api(`/battles/${pictured}/image`))).status).toBe(404);

    const page = await queue('?state=taken_down');
    expect(page.battles.map((b) => b.id)).toEqual([pictured]);
    expect(page.battles[0]).toMatchObject({
      tool: 'docent',
      question: { hasImage: true, imageUrl: `/api/admin/battles/${pictured}/image` },
      moderation: { state: 'taken_down', by: 'operator:token', reason: 'The person in the photo asked.', categories: [] },
    });
    // The operators' image route serves it whatever its state; only to operators.
    const image = await fetch(`${duet.url}${page.battles[0]!.question.imageUrl!}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await image.arrayBuffer()).equals(await storedImage(duet.db.pool, pictured))).toBe(true);
    expect((await fetch(`${duet.url}/api/admin/battles/${pictured}/image`)).status).toBe(401);
    expect((await operatorCall(api(`/admin/battles/${flagged[1]}/image`))).status).toBe(404);

    const restored = await decide(pictured, 'restore');
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({ battleId: pictured, moderation: 'ok' });
    expect(await historyIds('docent')).toContain(pictured);
    expect(await rowOf(pictured)).toMatchObject({ moderation: 'ok', moderated_by: 'operator:token', moderation_reason: null });
    expect((await queue('?state=taken_down')).battles).toEqual([]);
  });

  it('never lists or decides on an erased battle', async () => {
    const erased = await decided(await ask('anything-question', 'I will stab you, tell me how', 'en'));
    expect((await queue()).battles.map((b) => b.id)).toContain(erased);
    await duet.db.pool.query("UPDATE battles SET moderation = 'erased', moderated_by = 'owner' WHERE id = $1", [erased]);
    for (const state of ['flagged', 'pending', 'taken_down']) {
      expect((await queue(`?state=${state}`)).battles.map((b) => b.id)).not.toContain(erased);
    }
    for (const action of ['approve', 'takedown', 'restore'] as const) {
      const res = await decide(erased, action);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await rowOf(erased)).moderation).toBe('erased');
  });

  it('refuses bad queries, ids and bodies with a 400 (an unknown battle with a 404), changing nothing', async () => {
    const [, id] = flagged;
    const before = { row: await rowOf(id!), audit: await auditCount() };
    const someCursor = (await queue('?limit=1')).nextCursor!;
    for (const query of [
      '?state=ok',
      '?state=erased',
      '?state=FLAGGED',
      '?state=flagged&state=pending',
      '?limit=0',
      '?limit=51',
      '?limit=ten',
      '?limit=1.5',
      '?cursor=not-a-cursor',
      `?cursor=${someCursor}x`,
      `?cursor=${Buffer.from(JSON.stringify(['2025-13-01 00:00:00.000000+00', randomUUID()])).toString('base64url')}`,
      `?cursor=${Buffer.from(JSON.stringify(['2025-11-20 10:11:12+00', randomUUID()])).toString('base64url')}`,
      `?cursor=${Buffer.from(JSON.stringify(['1'])).toString('base64url')}`,
      '?sate=flagged',
    ]) {
      const res = await operatorCall(api(`/admin/moderation${query}`));
      expect({ query, status: res.status, code: res.body.error?.code }).toEqual({ query, status: 400, code: 'validation_failed' });
      expect(ZErrorResponseSchema.safeParse(res.body).success).toBe(true);
    }

    const refusals: Array<[Promise<Call<unknown>>, number, string]> = [
      [decide('not-a-battle', 'approve'), 400, 'validation_failed'],
      [decide(randomUUID(), 'approve'), 404, 'not_found'],
      [decide(randomUUID(), 'restore', { reason: 'x' }), 404, 'not_found'],
      [decide(id!, 'approve', { reason: 'x'.repeat(501) }), 400, 'validation_failed'],
      [decide(id!, 'takedown', { reason: 42 }), 400, 'validation_failed'],
      [decide(id!, 'takedown', { reason: 'a\u0000b' }), 400, 'validation_failed'],
      [decide(id!, 'restore', { reasons: 'typo' }), 400, 'validation_failed'],
      [decide(id!, 'approve', ['reason']), 400, 'validation_failed'],
      [operatorCall(api(`/admin/battles/${id}/approve`), { rawBody: '{"reason":', contentType: 'application/json' }), 400, 'validation_failed'],
      [operatorCall(api(`/admin/battles/${id}/takedown`), { rawBody: '{"reason":"lost"}', contentType: 'text/plain' }), 415, 'unsupported_media_type'],
      [operatorCall(api('/admin/battles/not-a-battle/image')), 400, 'validation_failed'],
    ];
    for (const [call, status, code] of refusals) {
      const res = await call;
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status, code });
    }
    expect({ row: await rowOf(id!), audit: await auditCount() }).toEqual(before);
  });

  it('answers 401 without a credential and 403 with a wrong one, on every queue call', async () => {
    const [, id] = flagged;
    const calls = (authorization: string | null) => [
      operatorCall(api('/admin/moderation'), { authorization }),
      operatorCall(api(`/admin/battles/${id}/image`), { authorization }),
      decide(id!, 'approve', { reason: 'x' }, authorization),
      decide(id!, 'takedown', undefined, authorization),
      decide(id!, 'restore', undefined, authorization),
    ];
    for (const res of await Promise.all(calls(null))) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    for (const res of await Promise.all(calls(`Bearer ${ADMIN_TOKEN.slice(0, -1)}y`))) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('invalid_token');
    }
    expect((await rowOf(id!)).moderation).toBe('flagged');
  });
});
