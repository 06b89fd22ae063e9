import { randomUUID } from 'node:crypto';
import { AUTH_MESSAGES, redisKeys } from '@duet/contracts';
import type { CreateBattleResponse, DeleteAccountResponse, HistoryResponse, LoginResponse } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAnswer } from '../../worker/src/store/battle.repo.ts';
import { call, EMULATOR_HOST, firebaseUser, identity } from '../helpers/accounts.ts';
import type { FirebaseUser } from '../helpers/accounts.ts';
import { getJson } from '../helpers/api.ts';
import { connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { gpsJpeg } from '../helpers/image-fixtures.ts';
import { waitFor } from '../helpers/wait.ts';

const ADMIN_TOKEN = 'a'.repeat(40);
const PASSWORD = 'correct horse battery';

/** Deleting one's account: what goes from everywhere public and from storage, and what stays counted. */
describe('deleting an account', () => {
  let duet: TestDuet;
  const url = (path: string) => `${duet.url}${path}`;

  beforeAll(async () => {
    duet = await startTestDuet({ env: { FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST, EXPORT_ENABLED: 'true', ADMIN_TOKEN } });
  });
  afterAll(async () => {
    await duet?.close();
  });

  const query = async <T extends object>(sql: string, params: unknown[] = []) => (await duet.db.pool.query<T>(sql, params)).rows;

  /** A signed-up, logged-in account: its Firebase user, its Duet user id and a session token. */
  async function account(): Promise<FirebaseUser & { userId: string; session: string }> {
    const user = await firebaseUser();
    expect((await call(url('/api/v2/user/signup'), { body: { provider: 'firebase', token: user.idToken, event: 'duet-launch' } })).status).toBe(200);
    const login = await call<LoginResponse>(url('/api/v2/user/login'), { body: { provider: 'firebase', token: user.idToken } });
    const [row] = await query<{ id: string }>('SELECT id FROM users WHERE firebase_uid = $1', [user.uid]);
    return { ...user, userId: row!.id, session: login.body.data.token };
  }

  /** Asks the docent about a photo as `session`'s user (or anonymously), waits until it is public, and votes. */
  async function askAndVote(session: string | null, marker: string): Promise<string> {
    const form = new FormData();
    form.set('tool', 'docent');
    form.set('lang', 'en');
    form.set('text', `What is this painting? ${marker}`);
    form.set('image', new Blob([await gpsJpeg(64, 48)], { type: 'image/jpeg' }), 'painting.jpg');
    const res = await fetch(url('/api/battles'), { method: 'POST', body: form, headers: session ? { authorization: `Bearer ${session}` } : {} });
    expect(res.status).toBe(202);
    const { battleId, voteToken } = (await res.json()) as CreateBattleResponse;
    await waitFor(async () => (await query('SELECT 1 FROM battles WHERE id = $1 AND status = $2', [battleId, 'finished'])).length === 1, { what: 'the battle to finish' });
    const vote = await call(url(`/api/battles/${battleId}/vote`), { body: { winner: 'a', voteToken }, ...(session ? { token: session } : {}) });
    expect(vote.status).toBe(200);
    await waitFor(async () => (await query(`SELECT 1 FROM battles WHERE id = $1 AND moderation = 'ok'`, [battleId])).length === 1, { what: 'moderation' });
    return battleId;
  }

  const historyIds = async () => (await getJson<HistoryResponse>(url('/api/tools/docent/history?limit=50'))).body.list.map((e) => e.id);
  const exported = async () => (await fetch(url('/api/export/votes.jsonl'))).text();
  const deleteAccount = (session: string, body: unknown = { confirm: 'DELETE' }) =>
    call<DeleteAccountResponse>(url('/api/v2/user/profile'), { method: 'DELETE', token: session, body });

  /** What the leaderboard and win rates are made of: every model's counters and the counted votes. */
  const aggregates = async () => ({
    totals: await query('SELECT tool, model, battles, wins, losses, ties, both_bad FROM model_totals ORDER BY tool, model'),
    counted: await query('SELECT battle_id, winner, counted FROM votes ORDER BY battle_id'),
  });

  it('erases the account, its battles’ questions, images and answers, and keeps its votes counted without a link', async () => {
    const me = await account();
    const other = await account();
    const mine = await askAndVote(me.session, 'MY-SECRET-QUESTION');
    const anonymous = await askAndVote(null, 'SOMEONE-ELSE');
    const theirs = await askAndVote(other.session, 'OTHER-USER');
    expect(await historyIds()).toEqual(expect.arrayContaining([mine, anonymous, theirs]));
    expect(await exported()).toContain('MY-SECRET-QUESTION');
    expect((await fetch(url(`/api/battles/${mine}/image`))).status).toBe(200);
    const before = await aggregates();

    // Refused without the confirmation word, or without a session: nothing changes.
    for (const body of [{}, { confirm: 'delete' }, { confirm: 'yes' }]) {
      const res = await deleteAccount(me.session, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect((await call(url('/api/v2/user/profile'), { method: 'DELETE', body: { confirm: 'DELETE' } })).status).toBe(412);
    expect(await query('SELECT 1 FROM users WHERE id = $1', [me.userId])).toHaveLength(1);

    const res = await deleteAccount(me.session);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { deleted: true, battles: 1, votes: 1 } });

    // Gone from everything public: history, the export, the image URL, a viewer joining the battle.
    expect(await historyIds()).not.toContain(mine);
    expect(await historyIds()).toEqual(expect.arrayContaining([anonymous, theirs]));
    const jsonl = await exported();
    expect(jsonl).not.toContain('MY-SECRET-QUESTION');
    expect(jsonl).toContain('SOMEONE-ELSE');
    expect((await fetch(url(`/api/battles/${mine}/image`))).status).toBe(404);
    const socket = await connectSocket(duet.url);
    try {
      const joined = await socket.emitWithAck('battle:join', { battleId: mine });
      expect(joined).toMatchObject({ ok: false, error: { code: 'not_found' } });
    } finally {
      socket.disconnect();
    }
    expect(await duet.redis.exists(redisKeys(duet.prefix).battleStream(mine))).toBe(0);

    // Gone from storage: the account, its gift, the question, the image, the answers' texts.
    expect(await query('SELECT 1 FROM users WHERE id = $1', [me.userId])).toEqual([]);
    expect(await query('SELECT 1 FROM signup_benefits WHERE user_id = $1', [me.userId])).toEqual([]);
    expect(await query('SELECT 1 FROM battle_images WHERE battle_id = $1', [mine])).toEqual([]);
    expect(await query('SELECT text, inputs, user_id, moderation, has_image FROM battles WHERE id = $1', [mine])).toEqual([
      { text: '', inputs: {}, user_id: null, moderation: 'erased', has_image: true },
    ]);
    expect(await query('SELECT text, error_message FROM answers WHERE battle_id = $1', [mine])).toEqual([
      { text: '', error_message: null },
      { text: '', error_message: null },
    ]);
    expect(await query('SELECT user_id, voter_key FROM votes WHERE battle_id = $1', [mine])).toEqual([{ user_id: null, voter_key: null }]);
    const dump = JSON.stringify(await query("SELECT * FROM battles b JOIN answers a ON a.battle_id = b.id WHERE b.moderation = 'erased'"));
    expect(dump).not.toContain('MY-SECRET-QUESTION');
    expect(dump).not.toContain(me.userId);

    // The vote still counts: win rates and the leaderboard's counters are as they were.
    expect(await aggregates()).toEqual(before);
    // The others' battles are untouched.
    expect(await query('SELECT user_id FROM battles WHERE id = $1', [theirs])).toEqual([{ user_id: other.userId }]);

    // The session ends with the account; the Firebase user is gone, so signing in fails.
    const profile = await call(url('/api/v2/user/profile'), { token: me.session });
    expect(profile.status).toBe(412);
    expect(profile.body.error.message).toBe(AUTH_MESSAGES.invalidToken);
    expect((await deleteAccount(me.session)).status).toBe(412);
    await expect(identity('accounts:signInWithPassword', { email: me.email, password: PASSWORD, returnSecureToken: true })).rejects.toThrow(/EMAIL_NOT_FOUND|USER_NOT_FOUND/);
  });

  it('keeps an answer that arrives after the erasure without its text', async () => {
    const me = await account();
    const battleId = await askAndVote(me.session, 'LATE-ANSWER');
    await query('DELETE FROM answers WHERE battle_id = $1 AND side = $2', [battleId, 'b']);
    expect((await deleteAccount(me.session)).status).toBe(200);
    // The worker stores the side it was still running.
    const stored = await insertAnswer(duet.db.pool, {
      battleId,
      side: 'b',
      model: 'demo-atlas',
      text: 'A late answer about LATE-ANSWER',
      stats: { finishReason: 'stop', inputTokens: 3, outputTokens: 5, ttftMs: 10, durationMs: 20 },
      error: null,
    });
    expect(stored).toBe(true);
    expect(await query('SELECT text, output_tokens, style_length FROM answers WHERE battle_id = $1 AND side = $2', [battleId, 'b'])).toEqual([
      { text: '', output_tokens: 5, style_length: 'A late answer about LATE-ANSWER'.length },
    ]);
  });

  it('lets an operator delete the account of a person who writes to support, by e-mail', async () => {
    const person = await account();
    const battleId = await askAndVote(person.session, 'SUPPORT-CASE');
    const admin = (ref: string, token: string | null = ADMIN_TOKEN) =>
      call<{ data: { deleted: number; battles: number; votes: number } }>(url(`/api/admin/users/${encodeURIComponent(ref)}`), {
        method: 'DELETE',
        ...(token ? { token } : {}),
      });
    expect((await admin(person.email, null)).status).toBe(401);
    expect((await admin(`nobody-${randomUUID()}@duet.test`)).status).toBe(404);

    const res = await admin(person.email.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { deleted: 1, battles: 1, votes: 1 } });
    expect(await historyIds()).not.toContain(battleId);
    expect(await query('SELECT 1 FROM users WHERE id = $1', [person.userId])).toEqual([]);
    await expect(identity('accounts:signInWithPassword', { email: person.email, password: PASSWORD, returnSecureToken: true })).rejects.toThrow(/EMAIL_NOT_FOUND|USER_NOT_FOUND/);
    // An erased battle is no operator's to restore.
    expect((await call(url(`/api/admin/battles/${battleId}/restore`), { body: {}, token: ADMIN_TOKEN })).status).toBe(404);
  });
});
