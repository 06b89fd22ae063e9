import { OWN_BOARD_MIN_VOTES } from '@duet/contracts';
import type { Leaderboard, OwnBoard, OwnBoardAgreement, OwnBoardModel } from '@duet/contracts';
import { fitBradleyTerry } from '@duet/ratings/ratings';
import { sampleRankCorrelation } from 'simple-statistics';
import type { OwnVoteCell } from './leaderboard.repo.ts';

const round1 = (x: number) => Math.round(x * 10) / 10;

/** 1 + how many of the ratings are above each one: equal ratings share a rank. */
function ranksOf(ratings: ReadonlyMap<string, number>): Map<string, number> {
  const all = [...ratings.values()];
  return new Map([...ratings].map(([model, r]) => [model, 1 + all.filter((x) => x > r).length]));
}

/**
 * The share of decisive votes that picked the model the crowd rates higher (votes between models
 * the crowd rates alike, or does not rate yet, say nothing either way), and Spearman's correlation
 * of the two orders over the models both rate.
 */
function agreementOf(cells: readonly OwnVoteCell[], own: ReadonlyMap<string, number>, crowd: ReadonlyMap<string, number>): OwnBoardAgreement {
  let votes = 0;
  let agreed = 0;
  for (const c of cells) {
    if (c.winner !== 'a' && c.winner !== 'b') continue;
    const [a, b] = [crowd.get(c.model_a), crowd.get(c.model_b)];
    if (a === undefined || b === undefined || a === b) continue;
    votes += c.n;
    if ((c.winner === 'a') === (a > b)) agreed += c.n;
  }
  const both = [...own.keys()].filter((m) => crowd.has(m));
  const rho = both.length < 2 ? NaN : sampleRankCorrelation(both.map((m) => own.get(m) as number), both.map((m) => crowd.get(m) as number));
  return {
    votes,
    agreed,
    share: votes === 0 ? null : agreed / votes,
    // NaN when either side rates every model alike; the clamp only takes off rounding past ±1.
    spearman: Number.isFinite(rho) ? Math.min(1, Math.max(-1, rho)) : null,
  };
}

/**
 * A visitor's own board from their eligible votes: the ratings engine's Bradley-Terry fit on those
 * votes alone (ties and "both bad" half a win each, as for the crowd), each model's rank among
 * them by the visitor and by the crowd's `crowd` board, and how far the two agree. Ratings are
 * compared as shown, to one decimal, so a tie the rounding makes is a tie in the ranks too.
 */
export function ownBoardOf(cells: readonly OwnVoteCell[], crowd: Pick<Leaderboard, 'models' | 'updatedAt'>): OwnBoard {
  const votes = cells.reduce((sum, c) => sum + c.n, 0);
  if (votes < OWN_BOARD_MIN_VOTES) return { eligible: false, votes, needed: OWN_BOARD_MIN_VOTES - votes };

  const fit = fitBradleyTerry(cells.map((c) => ({ a: c.model_a, b: c.model_b, winner: c.winner, n: c.n })));
  const own = new Map([...fit].map(([model, r]) => [model, round1(r)]));
  const crowdRatings = new Map(crowd.models.filter((m) => own.has(m.model)).map((m) => [m.model, m.rating]));
  const ownRanks = ranksOf(own);
  const crowdRanks = ranksOf(crowdRatings);

  const seen = new Map<string, Pick<OwnBoardModel, 'label' | 'family' | 'votes'>>();
  const note = (model: string, label: string, family: OwnBoardModel['family'], n: number) => {
    const m = seen.get(model) ?? { label, family, votes: 0 };
    m.votes += n;
    seen.set(model, m);
  };
  for (const c of cells) {
    note(c.model_a, c.label_a, c.family_a, c.n);
    note(c.model_b, c.label_b, c.family_b, c.n);
  }

  const models: OwnBoardModel[] = [...own].map(([model, rating]) => ({
    model,
    ...(seen.get(model) as Pick<OwnBoardModel, 'label' | 'family' | 'votes'>),
    rating,
    rank: ownRanks.get(model) as number,
    crowdRating: crowdRatings.get(model) ?? null,
    crowdRank: crowdRanks.get(model) ?? null,
  }));
  models.sort((x, y) => x.rank - y.rank || (x.crowdRank ?? Infinity) - (y.crowdRank ?? Infinity) || x.label.localeCompare(y.label));
  return { eligible: true, votes, models, agreement: agreementOf(cells, own, crowdRatings), crowdUpdatedAt: crowd.updatedAt };
}
