import { ApiError } from '../api/http.ts';
import { IdentityError, NOT_INITIALIZED } from './identity.ts';

/**
 * Identity provider codes the specification lists (section 8), plus the product's own
 * `firebase-not-initialized`; each has a message in the `auth` namespace under `errors.<code>`.
 */
export const IDENTITY_ERROR_CODES = [
  'email-already-in-use',
  'invalid-email',
  'wrong-password',
  'user-not-found',
  'user-disabled',
  'too-many-requests',
  'weak-password',
  'invalid-credential',
  'account-exists-with-different-credential',
  'popup-closed-by-user',
  'popup-blocked',
  'cancelled-popup-request',
  'requires-recent-login',
  'network-request-failed',
  'expired-action-code',
  'invalid-action-code',
  'web-storage-unsupported',
  'unauthorized-domain',
  'internal-error',
  'operation-not-supported-in-this-environment',
  'invalid-api-key',
  'auth-domain-config-required',
  'invalid-auth-event',
  'no-auth-event',
  'redirect-cancelled-by-user',
  'invalid-persistence-type',
  'unsupported-persistence-type',
  'multi-factor-auth-required',
  'user-token-expired',
  NOT_INITIALIZED,
] as const;

/** Outcomes of the login and signup flows that come from Duet's server rather than the provider. */
export type AuthOutcome = 'not-registered' | 'already-registered';

/** A flow ended on one of the specification's product outcomes. */
export class AuthFlowError extends Error {
  constructor(readonly outcome: AuthOutcome) {
    super(outcome);
    this.name = 'AuthFlowError';
  }
}

export interface AuthErrorMessage {
  /** Key in the `auth` namespace. */
  key: string;
  /**
   * The flow is over and the message is the specification's product message (shown as a toast,
   * the dialog closes); otherwise the visitor can correct something and try again in place.
   */
  final: boolean;
}

const known = new Set<string>(IDENTITY_ERROR_CODES);

/** Which message a failed login or signup shows, and whether it ends the flow. */
export function authErrorMessage(err: unknown): AuthErrorMessage {
  if (err instanceof AuthFlowError) {
    return { key: err.outcome === 'not-registered' ? 'messages.notRegistered' : 'messages.alreadyRegistered', final: true };
  }
  if (err instanceof IdentityError) {
    // The specification: "already registered via the social provider; flow stops".
    if (err.code === 'account-exists-with-different-credential') return { key: 'messages.differentCredential', final: true };
    return { key: known.has(err.code) ? `errors.${err.code}` : 'errors.unknown', final: false };
  }
  if (err instanceof ApiError) {
    return { key: err.code === 'network_error' ? 'errors.network-request-failed' : 'messages.serverError', final: false };
  }
  return { key: 'errors.unknown', final: false };
}
