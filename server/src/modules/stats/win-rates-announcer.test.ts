import { setTimeout as delay } from 'node:timers/promises';
import type { WinRate } from '@duet/contracts';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { DuetEvents } from '../../events/duet-events.ts';
import { createEventBus } from '../../events/event-bus.ts';
import type { StatsService } from './stats.service.ts';
import { announceWinRates } from './win-rates-announcer.ts';

describe('the win-rates announcer, when its gateway closes', () => {
  it('announces what was waiting at once, then nothing more, however votes keep coming', async () => {
    const events = createEventBus<DuetEvents>(pino({ level: 'silent' }));
    let reads = 0;
    // Each read's figures say which read it was, so the announcement shows what it carried.
    const stats = { winRates: async () => [{ model: `read-${++reads}` }] as unknown as WinRate[] } as unknown as StatsService;
    const announced: string[] = [];
    events.on('winRates.changed', ({ tool, winRates }) => void announced.push(`${tool}:${winRates[0]?.model}`));
    const announcer = announceWinRates(events, stats, pino({ level: 'silent' }), 10_000);

    events.emit('vote.counted', { battleId: 'b1', tool: 'quiz-solving' });
    events.emit('vote.counted', { battleId: 'b2', tool: 'quiz-solving' });
    await delay(20);
    // The first vote's figures at once; the second's wait for the 10 s interval.
    expect(announced).toEqual(['quiz-solving:read-1']);

    await announcer.stop();
    expect(announced).toEqual(['quiz-solving:read-1', 'quiz-solving:read-2']);

    events.emit('vote.counted', { battleId: 'b3', tool: 'quiz-solving' });
    events.emit('vote.counted', { battleId: 'b4', tool: 'rap-lyrics' });
    await delay(50);
    expect(announced).toHaveLength(2);
    expect(reads).toBe(2);
  });
});
