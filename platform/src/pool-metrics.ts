import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

/** What the pool gauges read of a node-postgres `Pool` (kept structural: shared does not load pg). */
export interface PoolFigures {
  options: { max?: number | undefined };
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * A process's PostgreSQL pool against its budget (DB_POOL_SIZE), for gateway and worker alike:
 * `duet_db_pool_waiting` above 0 for long means queries queue for a connection.
 */
export function dbPoolGauges(registry: Registry, db: PoolFigures): void {
  const registers = [registry];
  new Gauge({ name: 'duet_db_pool_max', help: 'PostgreSQL connections this process may hold (DB_POOL_SIZE)', registers }).set(db.options.max ?? 10);
  new Gauge({
    name: 'duet_db_pool_connections',
    help: 'PostgreSQL connections this process holds, by state (idle, in use)',
    labelNames: ['state'],
    registers,
    collect() {
      this.set({ state: 'idle' }, db.idleCount);
      this.set({ state: 'in_use' }, db.totalCount - db.idleCount);
    },
  });
  new Gauge({
    name: 'duet_db_pool_waiting',
    help: 'Queries waiting for a free PostgreSQL connection of this process',
    registers,
    collect() {
      this.set(db.waitingCount);
    },
  });
}
