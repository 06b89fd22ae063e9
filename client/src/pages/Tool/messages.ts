import type { ErrorCode, SideErrorCode } from '@duet/contracts';
import type { QueuePlace } from '@duet/contracts/socket-events';
import { BLIND_LABELS } from '@duet/contracts/schemas/battle.schema';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/http.ts';
import { formatBytes } from './format-bytes.ts';
import type { ImageProblem } from './image-check.ts';

/** A failed call's code: the API's, or `network_error` when no answer came. */
type ApiFailureCode = ErrorCode | 'network_error';

/**
 * The message for each code the API can answer with (keys of the `battle` namespace). A new code
 * in the shared list is a type error here until it has a message; codes a visitor of this page
 * cannot cause share the generic one.
 */
export const API_ERROR_MESSAGES: Record<ApiFailureCode, `errors.${string}`> = {
  validation_failed: 'errors.validation_failed',
  unknown_tool: 'errors.unknown_tool',
  image_required: 'errors.image_required',
  image_not_allowed: 'errors.image_not_allowed',
  image_too_large: 'errors.image_too_large',
  unsupported_image_type: 'errors.unsupported_image_type',
  payload_too_large: 'errors.payload_too_large',
  not_found: 'errors.not_found',
  invalid_vote_token: 'errors.invalid_vote_token',
  already_voted: 'errors.already_voted',
  battle_not_finished: 'errors.battle_not_finished',
  not_voted: 'errors.not_voted',
  reasons_given: 'errors.reasons_given',
  too_late: 'errors.too_late',
  turn_limit: 'errors.turn_limit',
  rate_limited: 'errors.rate_limited',
  unavailable: 'errors.unavailable',
  busy: 'errors.busy',
  budget_exhausted: 'errors.budget_exhausted',
  models_unavailable: 'errors.models_unavailable',
  quota_exceeded: 'errors.quota_exceeded',
  challenge_required: 'errors.challenge',
  challenge_replayed: 'errors.challenge',
  network_error: 'errors.network_error',
  too_many_rooms: 'errors.generic',
  too_many_connections: 'errors.generic',
  unsupported_media_type: 'errors.generic',
  origin_not_allowed: 'errors.generic',
  not_registered: 'errors.generic',
  invalid_token: 'errors.generic',
  unauthorized: 'errors.generic',
  conflict: 'errors.generic',
  confirmation_required: 'errors.generic',
  internal: 'errors.generic',
};

/**
 * Why one side failed, for each code the event schema allows (keys of the `battle` namespace).
 * A new code in the shared list is a type error here until it is translated.
 */
export const SIDE_ERROR_MESSAGES: Record<SideErrorCode, `sideErrors.${string}`> = {
  rate_limited: 'sideErrors.rate_limited',
  provider_unavailable: 'sideErrors.provider_unavailable',
  timeout: 'sideErrors.timeout',
  stream_cut: 'sideErrors.stream_cut',
  auth_failed: 'sideErrors.auth_failed',
  bad_request: 'sideErrors.bad_request',
  model_unavailable: 'sideErrors.model_unavailable',
  provider_error: 'sideErrors.generic',
  battle_failed: 'sideErrors.generic',
};

const messageOf = <K extends string>(messages: Record<string, K>, code: string, fallback: K): K =>
  Object.hasOwn(messages, code) ? messages[code]! : fallback;

/** A battle with chosen models was refused for them: one is no longer offered, or not answering. */
export const chosenModelsRefused = (err: unknown): boolean =>
  err instanceof ApiError &&
  (err.code === 'models_unavailable' || (err.code === 'validation_failed' && err.issues.some((i) => i.path === 'models' || i.path.startsWith('models.'))));

/**
 * A failed API call, in the visitor's language (by its code; unknown codes get the generic text).
 * `chosen`: the request named its two models.
 */
export function apiErrorMessage(t: TFunction<'battle'>, err: unknown, now: Date = new Date(), chosen = false): string {
  const code = err instanceof ApiError ? err.code : 'generic';
  if (chosen && chosenModelsRefused(err)) return t('errors.chosenModelsRefused');
  if (err instanceof ApiError && code === 'budget_exhausted' && err.retryAfterSeconds !== null) return comeBackMessage(t, err.retryAfterSeconds, now);
  if (err instanceof ApiError && code === 'quota_exceeded' && err.quota) {
    const { limit, signedInLimit } = err.quota;
    return signedInLimit !== null && signedInLimit > limit ? t('errors.quota_exceeded_signup', { limit, signedInLimit }) : t('errors.quota_exceeded', { limit });
  }
  return t(messageOf(API_ERROR_MESSAGES, code, 'errors.generic'));
}

/**
 * A refused follow-up, in the visitor's language: as `apiErrorMessage` says it, but a turn still
 * running is said as such (the code is the vote's too, whose message speaks of voting).
 */
export function followUpErrorMessage(t: TFunction<'battle'>, err: unknown, now: Date = new Date()): string {
  if (err instanceof ApiError && err.code === 'battle_not_finished') return t('followUp.notFinished');
  return apiErrorMessage(t, err, now);
}

/** Why a picked image was refused, in the visitor's language (its size in the visitor's units). */
export function imageProblemMessage(t: TFunction<'battle'>, { problem, size }: { problem: ImageProblem; size: number }, language: string): string {
  if (problem === 'image_too_large') return t('validation.imageTooLarge', { size: formatBytes(size, language) });
  return problem === 'image_empty' ? t('validation.imageEmpty') : t('validation.imageType');
}

/** Whether a failed question is one that signing up would let through (an anonymous visitor's spent quota). */
export const signUpWouldHelp = (err: unknown): boolean =>
  err instanceof ApiError && err.code === 'quota_exceeded' && err.quota !== null && err.quota.signedInLimit !== null && err.quota.signedInLimit > err.quota.limit;

/** When today's budget is spent: the local time it has room again, and how long until then. */
function comeBackMessage(t: TFunction<'battle'>, seconds: number, now: Date): string {
  const at = new Date(now.getTime() + seconds * 1000);
  const formatParams = { at: { hour: 'numeric', minute: '2-digit' } };
  if (seconds < 90 * 60) return t('errors.budget_exhausted_minutes', { at, minutes: Math.max(1, Math.round(seconds / 60)), formatParams });
  return t('errors.budget_exhausted_hours', { at, hours: Math.round(seconds / 3600), formatParams });
}

/** Why one side failed, in the visitor's language (a code from a newer gateway gets the generic text). */
export function sideErrorMessage(t: TFunction<'battle'>, code: SideErrorCode): string {
  return t(messageOf(SIDE_ERROR_MESSAGES, code, 'sideErrors.generic'));
}

/** The blind labels the API sends ("Model A", "Model B") are shown translated. Real names stay. */
export function sideLabel(t: TFunction<'battle'>, label: string): string {
  if (label === BLIND_LABELS.a) return t('side.modelA');
  if (label === BLIND_LABELS.b) return t('side.modelB');
  return label;
}

/**
 * A battle's place in line, with the wait the queue's pace suggests once it is known: in seconds
 * up to a minute and a half, in whole minutes past it (a campaign's queue can be minutes long).
 */
export function queuePlaceMessage(t: TFunction<'battle'>, place: QueuePlace): string {
  const { position, etaSeconds } = place;
  if (etaSeconds === null) return t('battle.queued', { position });
  if (etaSeconds < 90) return t('battle.queuedEta', { position, seconds: etaSeconds });
  return t('battle.queuedEtaMinutes', { position, minutes: Math.round(etaSeconds / 60) });
}
