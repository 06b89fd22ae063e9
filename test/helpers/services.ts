/**
 * Where the integration tests find PostgreSQL and Redis: from the environment, else this
 * machine's local services. (Testcontainers would need a Docker engine, which CI lacks.)
 */
export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Databases the tests create are named with this prefix and dropped afterwards. */
export const TEST_DB_PREFIX = 'duet_t_';
