import { parseEnv, ZInfraEnvSchema } from '@duet/platform/env';
import { migrate } from './migrate.ts';

const env = parseEnv(ZInfraEnvSchema, process.env);
await migrate(env.DATABASE_URL, (msg) => console.log(msg));
console.log('migrations applied');
