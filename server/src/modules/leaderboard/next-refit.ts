import { LEADERBOARD_SCHEDULER, LEADERBOARD_STYLE_SCHEDULER } from '@duet/contracts';
import type { LeaderboardControl } from '@duet/contracts';

/** The part of the leaderboard queue the lookup reads: its schedulers. */
interface RefitQueue {
  getJobScheduler: (id: string) => Promise<{ next?: number | null } | undefined>;
}

/**
 * When the refit of boards of a control runs next (epoch ms), from the workers' schedulers in
 * Redis: the plain boards follow the frequent refit, the style-controlled ones the style refit.
 * Null when it is not scheduled (no worker has written the schedule yet).
 */
export function nextRefitFrom(refits: RefitQueue | undefined): (control: LeaderboardControl) => Promise<number | null> {
  return async (control) => {
    if (!refits) return null;
    const scheduler = await refits.getJobScheduler(control === 'style' ? LEADERBOARD_STYLE_SCHEDULER : LEADERBOARD_SCHEDULER);
    return scheduler?.next ?? null;
  };
}
