import { AUTH_MESSAGES, AUTH_PROVIDER, SIGNUP_GIFTS } from '@duet/contracts';
import type { DeleteAccountResponse, LoginRequest, LoginResponse, ProfileResponse, SignupRequest, SignupResponse, UserProfile } from '@duet/contracts';
import type { Db } from '../../infra/db.ts';
import { withTransaction } from '../../infra/db.ts';
import { AppError } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { ErasureService } from '../erasure/erasure.service.ts';
import type { FirebaseAuth, FirebaseIdentity } from './firebase-auth.ts';
import * as repo from './user.repo.ts';
import type { SessionTokens } from './session.ts';
import { invalidToken } from './session.ts';

export interface UserServiceDeps {
  db: Db;
  /** Null when accounts are not configured: signup and login answer 503. */
  firebase: FirebaseAuth | null;
  sessions: SessionTokens;
  /** Erases what a user put into Duet when they delete their account. */
  erasure: ErasureService;
}

export type UserService = ReturnType<typeof createUserService>;

/** 503 `unavailable`: no emulator and no Firebase credentials are configured. */
export const accountsOff = (): AppError =>
  new AppError(503, 'unavailable', 'Accounts are not set up on this server. Everything else works without signing in.');

const tokenProfile = (id: FirebaseIdentity): repo.TokenProfile => ({
  email: id.email,
  displayName: id.name,
  picture: id.picture,
  emailVerified: id.emailVerified,
});

export function toUserProfile(u: repo.UserRow): UserProfile {
  return {
    user_uid: u.firebaseUid,
    picture: u.picture,
    email: u.email,
    displayName: u.displayName,
    provider: AUTH_PROVIDER,
    emailVerified: u.emailVerified,
    benefits: u.benefits && { ...u.benefits, grantedAt: u.benefits.grantedAt.toISOString() },
    createdAt: u.createdAt.toISOString(),
  };
}

export function createUserService(deps: UserServiceDeps) {
  const verifyFirebase = (idToken: string): Promise<FirebaseIdentity> => {
    if (!deps.firebase) throw accountsOff();
    return deps.firebase.verifyIdToken(idToken);
  };

  /**
   * Creates the account of a Firebase user and grants the signup gift, in one transaction.
   * An existing account answers `{ data: false }`, and so does the loser of two simultaneous
   * signups: the gift is granted exactly once.
   */
  async function signup(req: SignupRequest): Promise<SignupResponse> {
    const identity = await verifyFirebase(req.token);
    if (identity.signInProvider === 'anonymous') {
      throw new AppError(401, 'unauthorized', 'Sign in with e-mail or Google to create an account.');
    }
    const userId = await withTransaction(deps.db, async (client) => {
      const id = await repo.insertUser(client, {
        ...tokenProfile(identity),
        firebaseUid: identity.uid,
        provider: req.provider,
        signupEvent: req.event,
      });
      if (id) {
        await repo.grantBenefits(client, {
          userId: id,
          writingMonths: SIGNUP_GIFTS.writingMonths,
          drawingTokens: SIGNUP_GIFTS.drawingTokens,
          event: req.event,
        });
      }
      return id;
    });
    if (!userId) return { data: false };
    const user = await repo.findUser(deps.db, userId);
    if (!user) throw new Error(`user ${userId} vanished right after signup`);
    return { data: { user: toUserProfile(user) } };
  }

  /** Exchanges a Firebase ID token for a Duet session token, refreshing the stored profile. */
  async function login(req: LoginRequest): Promise<LoginResponse> {
    const identity = await verifyFirebase(req.token);
    const userId = await repo.recordLogin(deps.db, identity.uid, tokenProfile(identity));
    if (!userId) throw new AppError(404, 'not_registered', AUTH_MESSAGES.notRegistered);
    const { token, expiresAt } = await deps.sessions.issue(userId);
    return { data: { token, expiresAt: expiresAt.toISOString() } };
  }

  /** The user a session token belongs to; 412 `invalid_token` if it is bad or the account is gone. */
  async function authenticate(sessionToken: string): Promise<string> {
    const userId = await deps.sessions.verify(sessionToken);
    if (!(await repo.userExists(deps.db, userId))) throw invalidToken();
    return userId;
  }

  async function profile(sessionToken: string): Promise<ProfileResponse> {
    const user = await repo.findUser(deps.db, await deps.sessions.verify(sessionToken));
    if (!user) throw invalidToken();
    return { data: { user: toUserProfile(user) } };
  }

  /**
   * Deletes an account for good: the Firebase user first (so a deletion cut short by a failure
   * leaves an account that can still ask again), then everything Duet holds of them
   * (`erasure.repo.ts`). Their sessions end with the account: each request checks it exists.
   */
  async function deleteAccount(userId: string): Promise<DeleteAccountResponse> {
    const user = await repo.findUser(deps.db, userId);
    if (!user) throw invalidToken();
    if (!deps.firebase) throw accountsOff();
    await deps.firebase.deleteUser(user.firebaseUid);
    const erased = await deps.erasure.erase(user.id);
    return { data: { deleted: true, ...erased } };
  }

  /**
   * Deletes, for an operator answering a person who wrote to support, every account a reference
   * names (a Duet id, a Firebase uid or an e-mail address); 404 when it names none.
   */
  /** An operator deletes every account `ref` names (support's request); the audit log keeps the accounts' ids, never the ref (an e-mail). */
  async function deleteAccountsOf(ref: string, actor: string): Promise<{ data: { deleted: number; battles: number; votes: number } }> {
    const ids = await repo.findUserIds(deps.db, ref);
    if (ids.length === 0) throw new AppError(404, 'not_found', 'No account has this id, Firebase uid or e-mail address');
    const total = { deleted: 0, battles: 0, votes: 0 };
    for (const id of ids) {
      const { data } = await deleteAccount(id);
      total.deleted += 1;
      total.battles += data.battles;
      total.votes += data.votes;
    }
    await recordAudit(deps.db, { actor, action: 'user.delete', target: ids.join(','), before: null, after: total });
    return { data: total };
  }

  return { signup, login, authenticate, profile, deleteAccount, deleteAccountsOf };
}
