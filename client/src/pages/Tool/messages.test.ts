import { ERROR_CODES, SIDE_ERROR_CODES } from '@duet/contracts';
import type { SideErrorCode } from '@duet/contracts';
import { BLIND_LABELS } from '@duet/contracts/schemas/battle.schema';
import { createInstance } from 'i18next';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/http.ts';
import en from '../../i18n/locales/en/battle.json';
import ko from '../../i18n/locales/ko/battle.json';
import { API_ERROR_MESSAGES, apiErrorMessage, followUpErrorMessage, queuePlaceMessage, SIDE_ERROR_MESSAGES, sideErrorMessage, sideLabel } from './messages.ts';

/** A `t` that answers the key it was asked for. */
const t = ((key: string) => key) as unknown as TFunction<'battle'>;

const translated = (locale: unknown, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), locale);

describe('messages about failures', () => {
  it('has a Korean and an English message for every code a side can fail with', () => {
    for (const code of SIDE_ERROR_CODES) {
      const key = SIDE_ERROR_MESSAGES[code];
      expect(translated(en, key), `${code} in English`).toEqual(expect.any(String));
      expect(translated(ko, key), `${code} in Korean`).toEqual(expect.any(String));
    }
  });

  it('has a Korean and an English message for every code the API answers with', () => {
    for (const code of [...ERROR_CODES, 'network_error' as const]) {
      const key = API_ERROR_MESSAGES[code];
      expect(translated(en, key), `${code} in English`).toEqual(expect.any(String));
      expect(translated(ko, key), `${code} in Korean`).toEqual(expect.any(String));
    }
  });

  it('says why a side failed by its code, and gives a code it does not know the generic message', () => {
    expect(sideErrorMessage(t, 'timeout')).toBe('sideErrors.timeout');
    expect(sideErrorMessage(t, 'stream_cut')).toBe('sideErrors.stream_cut');
    expect(sideErrorMessage(t, 'battle_failed')).toBe('sideErrors.generic');
    expect(sideErrorMessage(t, 'from_a_newer_gateway' as SideErrorCode)).toBe('sideErrors.generic');
    expect(sideErrorMessage(t, 'toString' as SideErrorCode)).toBe('sideErrors.generic');
  });

  it('says why a call failed by its code, and falls back to the generic message', () => {
    expect(apiErrorMessage(t, new ApiError(429, 'rate_limited', 'Slow down'))).toBe('errors.rate_limited');
    expect(apiErrorMessage(t, new ApiError(0, 'network_error', 'The network request failed'))).toBe('errors.network_error');
    expect(apiErrorMessage(t, new ApiError(429, 'too_many_rooms', 'Too many rooms'))).toBe('errors.generic');
    expect(apiErrorMessage(t, new ApiError(502, 'http_error', 'Bad Gateway'))).toBe('errors.generic');
    expect(apiErrorMessage(t, new Error('boom'))).toBe('errors.generic');
  });

  it('says a chosen model was refused only for a battle that chose its models', () => {
    const refused = new ApiError(400, 'validation_failed', 'Invalid', [{ path: 'models.1', message: 'not offered' }]);
    const unavailable = new ApiError(503, 'models_unavailable', 'Not answering');
    const otherField = new ApiError(400, 'validation_failed', 'Invalid', [{ path: 'text', message: 'too long' }]);
    expect(apiErrorMessage(t, refused, undefined, true)).toBe('errors.chosenModelsRefused');
    expect(apiErrorMessage(t, unavailable, undefined, true)).toBe('errors.chosenModelsRefused');
    expect(apiErrorMessage(t, otherField, undefined, true)).toBe('errors.validation_failed');
    expect(apiErrorMessage(t, unavailable)).toBe('errors.models_unavailable');
    expect(apiErrorMessage(t, refused)).toBe('errors.validation_failed');
  });
});

describe('a refused follow-up', () => {
  it('says a turn still running as such, the turn limit and the rest as any call’s', () => {
    expect(followUpErrorMessage(t, new ApiError(409, 'battle_not_finished', 'Still running'))).toBe('followUp.notFinished');
    expect(followUpErrorMessage(t, new ApiError(409, 'turn_limit', 'At most 8'))).toBe('errors.turn_limit');
    expect(followUpErrorMessage(t, new ApiError(409, 'already_voted', 'Voted'))).toBe('errors.already_voted');
    expect(followUpErrorMessage(t, new ApiError(0, 'network_error', 'The network request failed'))).toBe('errors.network_error');
    expect(translated(en, 'followUp.notFinished')).toEqual(expect.any(String));
    expect(translated(ko, 'followUp.notFinished')).toEqual(expect.any(String));
  });
});

describe('side labels', () => {
  it('translates the blind labels the API sends and shows real model names as they are', () => {
    expect(sideLabel(t, BLIND_LABELS.a)).toBe('side.modelA');
    expect(sideLabel(t, BLIND_LABELS.b)).toBe('side.modelB');
    expect(sideLabel(t, 'GPT-4o')).toBe('GPT-4o');
    expect(sideLabel(t, 'model a')).toBe('model a');
  });
});

describe('a place in line', () => {
  /** The battle namespace's real texts, in `lng`. */
  const translator = (lng: 'en' | 'ko') => {
    const i18n = createInstance();
    void i18n.init({ lng, initAsync: false, resources: { en: { battle: en }, ko: { battle: ko } }, interpolation: { escapeValue: false } });
    return i18n.getFixedT(lng, 'battle') as TFunction<'battle'>;
  };
  const place = (position: number, etaSeconds: number | null) => ({ battleId: 'b', position, etaSeconds });

  it('gives the wait in seconds up to a minute and a half, then in whole minutes, in both languages', () => {
    const english = translator('en');
    expect(queuePlaceMessage(english, place(3, null))).toBe('Your question is number 3 in line.');
    expect(queuePlaceMessage(english, place(3, 42))).toBe('Your question is number 3 in line: about 42 s to go.');
    expect(queuePlaceMessage(english, place(3, 89))).toBe('Your question is number 3 in line: about 89 s to go.');
    expect(queuePlaceMessage(english, place(40, 90))).toBe('Your question is number 40 in line: about 2 min to go.');
    expect(queuePlaceMessage(english, place(400, 754))).toBe('Your question is number 400 in line: about 13 min to go.');
    const korean = translator('ko');
    expect(queuePlaceMessage(korean, place(2, 30))).toBe('질문이 대기열 2번째에 있어요. 약 30초 남았어요.');
    expect(queuePlaceMessage(korean, place(400, 754))).toBe('질문이 대기열 400번째에 있어요. 약 13분 남았어요.');
  });
});

describe('the message when the day’s budget is spent', () => {
  const translator = (lng: 'en' | 'ko') => {
    const i18n = createInstance();
    void i18n.init({ lng, initAsync: false, resources: { en: { battle: en }, ko: { battle: ko } }, interpolation: { escapeValue: false } });
    return i18n.getFixedT(lng, 'battle') as TFunction<'battle'>;
  };
  const spent = (seconds: number) => new ApiError(503, 'budget_exhausted', 'spent', [], seconds);
  const now = new Date(2026, 10, 28, 18, 0);

  it('tells when questions open again, in hours or minutes, in both languages', () => {
    const english = apiErrorMessage(translator('en'), spent(6 * 3600), now);
    expect(english).toMatch(/^Today's questions have all been asked\. New ones open at 12:00\s?AM \(in about 6 hours\)\.$/);
    expect(apiErrorMessage(translator('en'), spent(30 * 60), now)).toMatch(/New ones open at 6:30\s?PM \(in about 30 minutes\)\.$/);
    const korean = apiErrorMessage(translator('ko'), spent(6 * 3600), now);
    // Node's own ICU may lack Korean names for the half days; a browser says 오전.
    expect(korean).toMatch(/^오늘 준비된 질문이 모두 소진되었어요\. (오전|AM) 12:00에 다시 열려요 \(약 6시간 후\)\.$/);
  });

  it('says to come back tomorrow when the answer gave no time', () => {
    expect(apiErrorMessage(translator('en'), new ApiError(503, 'budget_exhausted', 'spent'), now)).toBe("Today's questions have all been asked. Please come back tomorrow.");
  });
});
