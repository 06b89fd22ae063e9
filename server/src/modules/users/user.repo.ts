import type { Db, DbClient } from '../../infra/db.ts';

type Queryable = Db | DbClient;

/** The profile fields a Firebase ID token carries. */
export interface TokenProfile {
  email: string | null;
  displayName: string | null;
  picture: string | null;
  emailVerified: boolean;
}

export interface UserRow extends TokenProfile {
  id: string;
  firebaseUid: string;
  provider: string;
  createdAt: Date;
  benefits: { writingMonths: number; drawingTokens: number; event: string; grantedAt: Date } | null;
}

interface RawUser {
  id: string;
  firebase_uid: string;
  email: string | null;
  display_name: string | null;
  picture: string | null;
  email_verified: boolean;
  provider: string;
  created_at: Date;
  writing_months: number | null;
  drawing_tokens: number | null;
  event: string | null;
  granted_at: Date | null;
}

const toUserRow = (r: RawUser): UserRow => ({
  id: r.id,
  firebaseUid: r.firebase_uid,
  email: r.email,
  displayName: r.display_name,
  picture: r.picture,
  emailVerified: r.email_verified,
  provider: r.provider,
  createdAt: r.created_at,
  benefits:
    r.granted_at === null
      ? null
      : { writingMonths: r.writing_months ?? 0, drawingTokens: r.drawing_tokens ?? 0, event: r.event ?? '', grantedAt: r.granted_at },
});

/** A user with their signup benefits (if any). */
export async function findUser(db: Queryable, id: string): Promise<UserRow | null> {
  const { rows } = await db.query<RawUser>(
    `SELECT u.id, u.firebase_uid, u.email, u.display_name, u.picture, u.email_verified, u.provider, u.created_at,
            b.writing_months, b.drawing_tokens, b.event, b.granted_at
       FROM users u LEFT JOIN signup_benefits b ON b.user_id = u.id
      WHERE u.id = $1`,
    [id],
  );
  return rows[0] ? toUserRow(rows[0]) : null;
}

/** The accounts a reference names: a Duet id, a Firebase uid, or an e-mail address (which several may share). */
export async function findUserIds(db: Queryable, ref: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM users WHERE id::text = lower($1) OR firebase_uid = $1 OR lower(email) = lower($1) ORDER BY created_at',
    [ref],
  );
  return rows.map((r) => r.id);
}

export async function userExists(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM users WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

/**
 * Inserts an account; null when one with this Firebase uid exists already. A concurrent insert
 * of the same uid waits on the unique index and then gets null too.
 */
export async function insertUser(
  client: DbClient,
  u: TokenProfile & { firebaseUid: string; provider: string; signupEvent: string },
): Promise<string | null> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO users (firebase_uid, email, display_name, picture, email_verified, provider, signup_event)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (firebase_uid) DO NOTHING
     RETURNING id`,
    [u.firebaseUid, u.email, u.displayName, u.picture, u.emailVerified, u.provider, u.signupEvent],
  );
  return rows[0]?.id ?? null;
}

/** Grants the signup gift; false when this account has it already (the primary key). */
export async function grantBenefits(
  client: DbClient,
  b: { userId: string; writingMonths: number; drawingTokens: number; event: string },
): Promise<boolean> {
  const { rowCount } = await client.query(
    `INSERT INTO signup_benefits (user_id, writing_months, drawing_tokens, event)
     VALUES ($1, $2, $3, $4) ON CONFLICT (user_id) DO NOTHING`,
    [b.userId, b.writingMonths, b.drawingTokens, b.event],
  );
  return rowCount === 1;
}

/** Refreshes the profile from a login's token; the user's id, or null for an unknown uid. */
export async function recordLogin(db: Queryable, firebaseUid: string, p: TokenProfile): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE users SET email = $2, display_name = $3, picture = $4, email_verified = $5, last_login_at = now()
      WHERE firebase_uid = $1
     RETURNING id`,
    [firebaseUid, p.email, p.displayName, p.picture, p.emailVerified],
  );
  return rows[0]?.id ?? null;
}
