import { describe, expect, it } from 'vitest';
import { createTurnFollowers } from './turn-followers.ts';

describe('the followers of a battle’s turns', () => {
  it('follows each turn listed once, and stops following a turn no longer listed', () => {
    const log: string[] = [];
    const followers = createTurnFollowers((id) => {
      log.push(`follow ${id}`);
      return () => log.push(`stop ${id}`);
    });
    followers.sync(['t1']);
    followers.sync(['t1']);
    // The first turn has ended and a follow-up was asked.
    followers.sync(['t2']);
    followers.sync(['t2', 't3']);
    followers.stop();
    expect(log).toEqual(['follow t1', 'stop t1', 'follow t2', 'follow t3', 'stop t2', 'stop t3']);
  });
});
