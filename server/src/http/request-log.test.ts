import { describe, expect, it } from 'vitest';
import { requestIdOf } from './request-log.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdOf', () => {
  it('keeps a sane X-Request-Id from a proxy as it is', () => {
    expect(requestIdOf('edge-7f3a:42')).toBe('edge-7f3a:42');
    expect(requestIdOf(['abc123', 'second'])).toBe('abc123');
  });

  it('makes a new UUID when there is none, or when it is empty, too long or carries odd characters', () => {
    for (const given of [undefined, '', 'x'.repeat(129), 'a b', 'line\nbreak', '<script>', '"quoted"', 'ünïcode']) {
      expect(requestIdOf(given)).toMatch(UUID);
    }
  });
});
