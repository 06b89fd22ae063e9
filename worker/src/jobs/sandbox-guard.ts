/**
 * Loaded with `--import` into every sandboxed child the battle worker forks (see
 * leaderboard-worker.ts), before BullMQ's own child code runs: the child ends with its parent from
 * its first instant, not only once it has started a job. A parent killed while the child was still
 * loading its processor left it spinning: its "ready" message failed, and BullMQ reported that
 * failure to the gone parent again and again (sandbox-child.ts).
 */
import { endWithParent } from './sandbox-child.ts';

endWithParent();
