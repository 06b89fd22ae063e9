import pg from 'pg';

export type Db = pg.Pool;

export const createDb = (databaseUrl: string, max = 10): Db => new pg.Pool({ connectionString: databaseUrl, max });
