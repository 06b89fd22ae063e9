/**
 * One live follower per turn of a battle that has not ended: `sync` starts following each turn
 * newly listed and stops following each turn no longer listed (an ended turn's snapshot is final,
 * so its room is left). `follow` starts following one turn by its id and answers how to stop.
 */
export function createTurnFollowers(follow: (turnBattleId: string) => () => void) {
  const following = new Map<string, () => void>();
  return {
    /** Follows exactly the turns `turnBattleIds`. */
    sync(turnBattleIds: readonly string[]): void {
      const wanted = new Set(turnBattleIds);
      for (const [id, stop] of following) {
        if (wanted.has(id)) continue;
        following.delete(id);
        stop();
      }
      for (const id of wanted) if (!following.has(id)) following.set(id, follow(id));
    },
    /** Stops following every turn. */
    stop(): void {
      this.sync([]);
    },
  };
}
