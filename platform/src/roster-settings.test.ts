import { describe, expect, it } from 'vitest';
import type { ModelSpec } from '@duet/contracts/roster';
import { buildRoster, DEMO_ROSTER, drawPair, ZModelEnvSchema, rosterSettingsFromEnv } from './roster-settings.ts';

const settings = (env: Record<string, string>) => rosterSettingsFromEnv(ZModelEnvSchema.parse(env));

describe('buildRoster', () => {
  it('uses the demo pair when no key is set', () => {
    expect(buildRoster(settings({}))).toEqual({ roster: DEMO_ROSTER, demo: true });
  });

  it('still uses the demo pair with a single key', () => {
    expect(buildRoster(settings({ OPENAI_API_KEY: 'k' })).demo).toBe(true);
  });

  it('pairs a GPT-4o-class and a Claude 3.5 Sonnet-class model when both keys are set', () => {
    const { roster, demo } = buildRoster(settings({ OPENAI_API_KEY: 'k1', ANTHROPIC_API_KEY: 'k2' }));
    expect(demo).toBe(false);
    expect(roster.map((m) => [m.id, m.label, m.family])).toEqual([
      ['openai:gpt-4o', 'GPT-4o', 'gpt'],
      ['anthropic:claude-3-5-sonnet-latest', 'Claude 3.5 Sonnet', 'claude'],
    ]);
  });

  it('takes a JSON roster over everything and validates it', () => {
    const models = [
      { id: 'x', label: 'X', provider: 'demo', model: 'atlas' },
      { id: 'y', label: 'Y', provider: 'openai-compatible', model: 'llama', baseURL: 'http://127.0.0.1:11434/v1', weight: 3 },
    ];
    const { roster } = buildRoster(settings({ DUET_MODELS: JSON.stringify(models), OPENAI_API_KEY: 'k' }));
    expect(roster.map((m) => m.id)).toEqual(['x', 'y']);
    expect(roster[0]?.family).toBe('other');
    expect(() => buildRoster(settings({ DUET_MODELS: JSON.stringify([models[0]]) }))).toThrow(/at least two/);
  });
});

describe('drawPair', () => {
  const roster: ModelSpec[] = ['a', 'b', 'c'].map((id, i) => ({
    id,
    label: id,
    provider: 'demo',
    model: id,
    family: 'other',
    weight: [1, 1, 8][i]!,
  }));

  it('always draws two different models', () => {
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 500; i++) {
      const [x, y] = drawPair(roster, random);
      expect(x.id).not.toBe(y.id);
    }
  });

  it('draws models in proportion to their weights', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const count = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const m of drawPair(roster, random)) count.set(m.id, (count.get(m.id) ?? 0) + 1);
    // c has weight 8 of 10: it is in nearly every pair; a and b share the rest.
    expect(count.get('c')! / 2000).toBeGreaterThan(0.9);
    expect(Math.abs(count.get('a')! - count.get('b')!) / 2000).toBeLessThan(0.1);
  });
});
