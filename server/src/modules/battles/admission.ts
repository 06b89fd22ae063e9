/** What the battle service asks before it stores a battle. */
export type Admission = () => Promise<{ open: true } | { open: false; retryAfterSeconds: number }>;

/**
 * Whether the queue can take another battle now. Past `maxWaiting` battles waiting (0: never) a
 * visitor is told to come back instead of waiting in silence, after about the time the queue's
 * measured pace (battles leaving the line per second) needs to work down to room for theirs,
 * within 5 s and 5 min; 30 s while no pace is known yet.
 */
export function createAdmission(deps: { maxWaiting: number; waitingCount: () => Promise<number>; pace: () => number }): Admission {
  return async () => {
    if (deps.maxWaiting === 0) return { open: true };
    const waiting = await deps.waitingCount();
    if (waiting < deps.maxWaiting) return { open: true };
    const pace = deps.pace();
    return { open: false, retryAfterSeconds: pace > 0 ? Math.min(300, Math.max(5, Math.ceil((waiting - deps.maxWaiting + 1) / pace))) : 30 };
  };
}
