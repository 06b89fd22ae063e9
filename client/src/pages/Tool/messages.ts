import type { TFunction } from 'i18next';
import { ApiError } from '../../api/http.ts';

const API_CODES = new Set([
  'validation_failed',
  'image_too_large',
  'unsupported_image_type',
  'image_required',
  'image_not_allowed',
  'payload_too_large',
  'rate_limited',
  'network_error',
  'battle_not_finished',
  'already_voted',
  'invalid_vote_token',
  'not_found',
  'unknown_tool',
  'unavailable',
]);

const SIDE_CODES = new Set([
  'rate_limited',
  'provider_unavailable',
  'timeout',
  'stream_cut',
  'auth_failed',
  'bad_request',
  'model_unavailable',
]);

/** A failed API call, in the visitor's language (by its code; unknown codes get the generic text). */
export function apiErrorMessage(t: TFunction<'battle'>, err: unknown): string {
  const code = err instanceof ApiError ? err.code : 'generic';
  return t(`errors.${API_CODES.has(code) ? code : 'generic'}` as 'errors.generic');
}

/** Why one side failed, in the visitor's language. */
export function sideErrorMessage(t: TFunction<'battle'>, code: string): string {
  return t(`sideErrors.${SIDE_CODES.has(code) ? code : 'generic'}` as 'sideErrors.generic');
}

/** "Model A"/"Model B" are the blind labels the API sends: shown translated. Real names stay. */
export function sideLabel(t: TFunction<'battle'>, label: string): string {
  if (label === 'Model A') return t('side.modelA');
  if (label === 'Model B') return t('side.modelB');
  return label;
}
