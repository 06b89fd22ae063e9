import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createEventBus } from './event-bus.ts';

interface TestEvents {
  'vote.counted': { tool: string };
  'battle.cancelled': { battleId: string };
}

describe('the event bus', () => {
  it('delivers each event to every subscriber of its name, and none of another', () => {
    const bus = createEventBus<TestEvents>(pino({ level: 'silent' }));
    const seen: string[] = [];
    bus.on('vote.counted', ({ tool }) => void seen.push(`first:${tool}`));
    bus.on('vote.counted', ({ tool }) => void seen.push(`second:${tool}`));
    bus.on('battle.cancelled', ({ battleId }) => void seen.push(`cancelled:${battleId}`));
    bus.emit('vote.counted', { tool: 'quiz-solving' });
    expect(seen).toEqual(['first:quiz-solving', 'second:quiz-solving']);
  });

  it('never lets a failing subscriber reach the emitter or the other subscribers', async () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    const bus = createEventBus<TestEvents>(logger);
    const seen: string[] = [];
    bus.on('vote.counted', () => {
      throw new Error('sync failure');
    });
    bus.on('vote.counted', async () => {
      throw new Error('async failure');
    });
    bus.on('vote.counted', ({ tool }) => void seen.push(tool));
    expect(() => bus.emit('vote.counted', { tool: 'docent' })).not.toThrow();
    expect(seen).toEqual(['docent']);
    await new Promise((r) => setTimeout(r, 0));
    expect(warnings.join('')).toMatch(/sync failure/);
    expect(warnings.join('')).toMatch(/async failure/);
  });

  it('stops delivering to a subscriber that unsubscribed', () => {
    const bus = createEventBus<TestEvents>(pino({ level: 'silent' }));
    let calls = 0;
    const off = bus.on('battle.cancelled', () => void (calls += 1));
    bus.emit('battle.cancelled', { battleId: 'x' });
    off();
    bus.emit('battle.cancelled', { battleId: 'x' });
    expect(calls).toBe(1);
  });
});
