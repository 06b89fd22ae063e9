import type { SideErrorCode } from '@duet/contracts';
import { describe, expect, it } from 'vitest';
import { breakerOutcome } from './run-battle.handler.ts';
import type { SideResult } from './run-side.ts';

const side = (finishReason: SideResult['stats']['finishReason'], code?: SideErrorCode): SideResult => ({
  text: '',
  error: code ? { code, message: '' } : null,
  stats: { finishReason, inputTokens: null, outputTokens: null, ttftMs: null, durationMs: 0 },
});

describe('what a side tells the models’ breaker', () => {
  it('counts an answer, a cut answer and a filtered one as the model working', () => {
    expect(breakerOutcome(side('stop'))).toBe('ok');
    expect(breakerOutcome(side('length'))).toBe('ok');
    expect(breakerOutcome(side('content_filter'))).toBe('ok');
  });
  it('counts the provider’s failures against the model', () => {
    for (const code of ['rate_limited', 'provider_unavailable', 'timeout', 'stream_cut', 'auth_failed', 'model_unavailable', 'provider_error'] as const) {
      expect(breakerOutcome(side('error', code)), code).toBe('fail');
    }
  });
  it('leaves out what the visitor did: a cancel, a question the model refuses', () => {
    expect(breakerOutcome(side('cancelled'))).toBeNull();
    expect(breakerOutcome(side('error', 'bad_request'))).toBeNull();
  });
});
