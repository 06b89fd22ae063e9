import { z } from 'zod';
import { ZRequestTextSchema } from './text.schema.ts';

/** The provider the specification records for every account. */
export const AUTH_PROVIDER = 'firebase';

/** The campaign tag the browser sends with a signup (the specification's fixed `event`). */
export const SIGNUP_EVENT = 'duet-launch';

/** What signing up through Duet gives (specification section 1). */
export const SIGNUP_GIFTS = { writingMonths: 1, drawingTokens: 130 } as const;

/** `POST /api/v2/user/signup`: a Firebase ID token and the campaign tag. */
export const ZSignupRequestSchema = z.object({
  provider: z.literal(AUTH_PROVIDER),
  token: ZRequestTextSchema.min(1).max(8_192),
  event: ZRequestTextSchema.min(1).max(64),
});
export type SignupRequest = z.infer<typeof ZSignupRequestSchema>;

/** `POST /api/v2/user/login`: a Firebase ID token. */
export const ZLoginRequestSchema = z.object({
  provider: z.literal(AUTH_PROVIDER),
  token: ZRequestTextSchema.min(1).max(8_192),
});
export type LoginRequest = z.infer<typeof ZLoginRequestSchema>;

export const ZSignupBenefitsSchema = z.object({
  writingMonths: z.number().int(),
  drawingTokens: z.number().int(),
  event: z.string(),
  grantedAt: z.string(),
});

/** `data.user` of the profile answer: the specification's `user_uid` and `picture`, and the rest. */
export const ZUserProfileSchema = z.object({
  user_uid: z.string(),
  picture: z.string().nullable(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  provider: z.literal(AUTH_PROVIDER),
  emailVerified: z.boolean(),
  benefits: ZSignupBenefitsSchema.nullable(),
  createdAt: z.string(),
});
export type UserProfile = z.infer<typeof ZUserProfileSchema>;

/** Signup answers `{ data: { user } }` (truthy) for a new account, `{ data: false }` when it exists. */
export const ZSignupResponseSchema = z.object({ data: z.union([z.object({ user: ZUserProfileSchema }), z.literal(false)]) });
export const ZLoginResponseSchema = z.object({ data: z.object({ token: z.string(), expiresAt: z.string() }) });
export const ZProfileResponseSchema = z.object({ data: z.object({ user: ZUserProfileSchema }) });
/**
 * Deleting one's account (`DELETE /api/v2/user/profile`): the body repeats the word the visitor
 * typed to confirm, so no stray request erases anyone.
 */
export const ACCOUNT_DELETION_WORD = 'DELETE';
export const ZDeleteAccountRequestSchema = z.object({ confirm: z.literal(ACCOUNT_DELETION_WORD) });
/** What was erased: the account, and how many battles and votes lost their link to it. */
export const ZDeleteAccountResponseSchema = z.object({ data: z.object({ deleted: z.literal(true), battles: z.number().int(), votes: z.number().int() }) });
export type DeleteAccountResponse = z.infer<typeof ZDeleteAccountResponseSchema>;
export type SignupResponse = z.infer<typeof ZSignupResponseSchema>;
export type LoginResponse = z.infer<typeof ZLoginResponseSchema>;
export type ProfileResponse = z.infer<typeof ZProfileResponseSchema>;

/** The Firebase web configuration the browser needs, served at runtime by `GET /api/auth/config`. */
export const ZAuthConfigSchema = z.object({
  apiKey: z.string(),
  authDomain: z.string(),
  projectId: z.string(),
  appId: z.string().optional(),
  /** Set in development and tests: the Firebase Auth Emulator's URL. */
  emulatorUrl: z.string().nullable(),
});
export type AuthConfig = z.infer<typeof ZAuthConfigSchema>;

/** The specification's product messages for account errors (Korean is the product's own text). */
export const AUTH_MESSAGES = {
  notRegistered: '가입되지 않은 계정입니다. 회원가입을 해주세요',
  invalidToken: '유효하지 않은 토큰입니다.',
} as const;
