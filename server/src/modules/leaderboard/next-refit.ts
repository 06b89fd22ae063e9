import { LEADERBOARD_SCHEDULER, LEADERBOARD_STYLE_SCHEDULER, styleRefitFollowsPlain } from '@duet/contracts';
import type { LeaderboardControl } from '@duet/contracts';

/** The part of the leaderboard queue the lookup reads: its schedulers. */
interface RefitQueue {
  getJobScheduler: (id: string) => Promise<{ next?: number | null } | undefined>;
}

/**
 * When the refit of boards of a control runs next (epoch ms), from the workers' schedulers in
 * Redis: the plain boards follow the frequent refit; the style-controlled ones too while their
 * refit is cheap (`styleCost` reads how the last one went), the style refit's schedule once it is not.
 * Null when it is not scheduled (no worker has written the schedule yet).
 */
export function nextRefitFrom(refits: RefitQueue | undefined, styleCost: () => Promise<string | null>): (control: LeaderboardControl) => Promise<number | null> {
  return async (control) => {
    if (!refits) return null;
    const ownSchedule = control === 'style' && !styleRefitFollowsPlain(await styleCost());
    const scheduler = await refits.getJobScheduler(ownSchedule ? LEADERBOARD_STYLE_SCHEDULER : LEADERBOARD_SCHEDULER);
    return scheduler?.next ?? null;
  };
}
