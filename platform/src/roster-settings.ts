/**
 * The roster as settings give it: from the environment (a JSON roster, or the provider keys), or
 * the built-in demo pair, which seeds the live roster in PostgreSQL (`roster-store.ts`); whether a
 * model can run; and how a battle draws its two models.
 */
import { PROVIDERS, ZRosterSchema } from '@duet/contracts/roster';
import type { ModelSpec } from '@duet/contracts/roster';
import { z } from 'zod';
import { ZOptionalTextSchema as optional } from './env.ts';

/** The built-in demo pair: no network, deterministic, two distinct styles. */
export const DEMO_ROSTER: ModelSpec[] = [
  { id: 'demo:atlas', label: 'Demo Atlas (GPT-style)', provider: 'demo', model: 'atlas', family: 'gpt', weight: 1 },
  { id: 'demo:sonnet', label: 'Demo Sonnet (Claude-style)', provider: 'demo', model: 'sonnet', family: 'claude', weight: 1 },
];

/** Settings the roster is built from (a subset of each process's config). */
export interface RosterSettings {
  /** A JSON roster; when set it wins over everything else. */
  models?: string | undefined;
  openaiApiKey?: string | undefined;
  openaiModel: string;
  openaiBaseUrl?: string | undefined;
  anthropicApiKey?: string | undefined;
  anthropicModel: string;
  anthropicBaseUrl?: string | undefined;
  compatBaseUrl?: string | undefined;
  compatModel?: string | undefined;
  /** Each seed provider's prices (US dollars per million tokens). */
  prices: Record<'openai' | 'anthropic' | 'compat', { inputUsdPerMTok: number; outputUsdPerMTok: number }>;
}

/**
 * Builds the roster from configuration: an explicit JSON roster if given; else every provider
 * with credentials; else, when fewer than two real models are configured, the demo pair.
 */
export function buildRoster(s: RosterSettings): { roster: ModelSpec[]; demo: boolean } {
  const built = buildFromSettings(s);
  // Every model names the variable its key is in (the roster in PostgreSQL keeps the name, never the key).
  return { ...built, roster: built.roster.map((m) => (m.apiKeyEnv || !KEY_ENV[m.provider] ? m : { ...m, apiKeyEnv: KEY_ENV[m.provider] })) };
}

/** The environment variable each provider's key is read from unless a model names another. */
const KEY_ENV: Record<ModelSpec['provider'], string | undefined> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  'openai-compatible': 'OPENAI_COMPAT_API_KEY',
  demo: undefined,
};

/**
 * Why a model cannot run here (null: it can): an unknown provider, an OpenAI-compatible one without
 * a base URL, a paid provider whose key's variable is unset (`keyIsSet` reads the environment).
 * A model that cannot run cannot be enabled.
 */
export function whyNotRunnable(m: Pick<ModelSpec, 'provider' | 'baseURL' | 'apiKeyEnv'>, keyIsSet: (envName: string) => boolean): string | null {
  if (!(PROVIDERS as readonly string[]).includes(m.provider)) return `Duet has no provider called "${m.provider}"`;
  if (m.provider === 'demo') return null;
  if (m.provider === 'openai-compatible' && !m.baseURL) return 'An OpenAI-compatible model needs a base URL';
  // A server of one's own may take no key; a named variable must be set all the same.
  if (m.provider === 'openai-compatible' && !m.apiKeyEnv) return null;
  if (!m.apiKeyEnv) return 'It names no environment variable for its API key';
  if (!keyIsSet(m.apiKeyEnv)) return `${m.apiKeyEnv} is not set in this deployment's environment`;
  return null;
}

function buildFromSettings(s: RosterSettings): { roster: ModelSpec[]; demo: boolean } {
  if (s.models) {
    // A model without prices takes its provider's (OPENAI_*_USD_PER_MTOK, ...): a paid provider's model
    // is never free by omission. Demo models cost nothing unless priced.
    const seed = { openai: s.prices.openai, anthropic: s.prices.anthropic, 'openai-compatible': s.prices.compat, demo: { inputUsdPerMTok: 0, outputUsdPerMTok: 0 } };
    const roster = ZRosterSchema.parse(JSON.parse(s.models)).map((m) => ({
      ...m,
      inputUsdPerMTok: m.inputUsdPerMTok ?? seed[m.provider].inputUsdPerMTok,
      outputUsdPerMTok: m.outputUsdPerMTok ?? seed[m.provider].outputUsdPerMTok,
    }));
    return { roster, demo: roster.every((m) => m.provider === 'demo') };
  }
  const real: ModelSpec[] = [];
  if (s.openaiApiKey) {
    real.push({
      id: `openai:${s.openaiModel}`,
      label: openaiLabel(s.openaiModel),
      provider: 'openai',
      model: s.openaiModel,
      family: 'gpt',
      weight: 1,
      baseURL: s.openaiBaseUrl,
      ...s.prices.openai,
    });
  }
  if (s.anthropicApiKey) {
    real.push({
      id: `anthropic:${s.anthropicModel}`,
      label: anthropicLabel(s.anthropicModel),
      provider: 'anthropic',
      model: s.anthropicModel,
      family: 'claude',
      weight: 1,
      baseURL: s.anthropicBaseUrl,
      ...s.prices.anthropic,
    });
  }
  if (s.compatBaseUrl && s.compatModel) {
    real.push({
      id: `compat:${s.compatModel}`,
      label: s.compatModel,
      provider: 'openai-compatible',
      model: s.compatModel,
      family: 'other',
      weight: 1,
      baseURL: s.compatBaseUrl,
      ...s.prices.compat,
    });
  }
  if (real.length >= 2) return { roster: real, demo: false };
  return { roster: DEMO_ROSTER, demo: true };
}

function openaiLabel(model: string): string {
  return model.replace(/^gpt/i, 'GPT');
}

function anthropicLabel(model: string): string {
  const m = /^claude-(\d)-(\d)-(sonnet|opus|haiku)/.exec(model) ?? /^claude-(sonnet|opus|haiku)-(\d)-?(\d)?/.exec(model);
  if (!m) return model;
  if (/^\d$/.test(m[1] ?? '')) return `Claude ${m[1]}.${m[2]} ${cap(m[3] ?? '')}`;
  return `Claude ${cap(m[1] ?? '')} ${m[2]}${m[3] ? `.${m[3]}` : ''}`;
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Draws two distinct models, each with probability proportional to its weight; `first`, when given, is one of them. */
export function drawPair(roster: readonly ModelSpec[], random: () => number = Math.random, first: ModelSpec = drawOne(roster, random)): [ModelSpec, ModelSpec] {
  const second = drawOne(
    roster.filter((m) => m.id !== first.id),
    random,
  );
  return [first, second];
}

function drawOne(pool: readonly ModelSpec[], random: () => number): ModelSpec {
  const total = pool.reduce((sum, m) => sum + m.weight, 0);
  let r = random() * total;
  for (const m of pool) {
    r -= m.weight;
    if (r < 0) return m;
  }
  const last = pool.at(-1);
  if (!last) throw new Error('Cannot draw from an empty roster');
  return last;
}

/** A price in US dollars per million tokens. */
const price = z.coerce.number().nonnegative('a price is never negative').max(10_000, 'at most $10,000 per million tokens');

/** The environment variables that choose the models; gateway and worker both read them. */
export const ZModelEnvSchema = z.object({
  DUET_MODELS: optional,
  OPENAI_API_KEY: optional,
  OPENAI_MODEL: z.string().default('gpt-4o'),
  OPENAI_BASE_URL: optional.pipe(z.string().url().optional()),
  ANTHROPIC_API_KEY: optional,
  ANTHROPIC_MODEL: z.string().default('claude-3-5-sonnet-latest'),
  ANTHROPIC_BASE_URL: optional.pipe(z.string().url().optional()),
  OPENAI_COMPAT_BASE_URL: optional.pipe(z.string().url().optional()),
  OPENAI_COMPAT_MODEL: optional,
  OPENAI_COMPAT_API_KEY: optional,
  /** GPT-4o's list price per million input tokens (USD, 2024-08-06 model, as listed 2024-10); set it with OPENAI_MODEL. */
  OPENAI_INPUT_USD_PER_MTOK: price.default(2.5),
  /** GPT-4o's list price per million output tokens. */
  OPENAI_OUTPUT_USD_PER_MTOK: price.default(10),
  /** Claude 3.5 Sonnet's list price per million input tokens (USD, as listed 2024-10); set it with ANTHROPIC_MODEL. */
  ANTHROPIC_INPUT_USD_PER_MTOK: price.default(3),
  /** Claude 3.5 Sonnet's list price per million output tokens. */
  ANTHROPIC_OUTPUT_USD_PER_MTOK: price.default(15),
  /** The OpenAI-compatible server's price per million input tokens (a server of one's own: 0). */
  OPENAI_COMPAT_INPUT_USD_PER_MTOK: price.default(0),
  /** Its price per million output tokens. */
  OPENAI_COMPAT_OUTPUT_USD_PER_MTOK: price.default(0),
});
export type ModelEnv = z.infer<typeof ZModelEnvSchema>;

export const rosterSettingsFromEnv = (env: ModelEnv): RosterSettings => ({
  models: env.DUET_MODELS,
  openaiApiKey: env.OPENAI_API_KEY,
  openaiModel: env.OPENAI_MODEL,
  openaiBaseUrl: env.OPENAI_BASE_URL,
  anthropicApiKey: env.ANTHROPIC_API_KEY,
  anthropicModel: env.ANTHROPIC_MODEL,
  anthropicBaseUrl: env.ANTHROPIC_BASE_URL,
  compatBaseUrl: env.OPENAI_COMPAT_BASE_URL,
  compatModel: env.OPENAI_COMPAT_MODEL,
  prices: {
    openai: { inputUsdPerMTok: env.OPENAI_INPUT_USD_PER_MTOK, outputUsdPerMTok: env.OPENAI_OUTPUT_USD_PER_MTOK },
    anthropic: { inputUsdPerMTok: env.ANTHROPIC_INPUT_USD_PER_MTOK, outputUsdPerMTok: env.ANTHROPIC_OUTPUT_USD_PER_MTOK },
    compat: { inputUsdPerMTok: env.OPENAI_COMPAT_INPUT_USD_PER_MTOK, outputUsdPerMTok: env.OPENAI_COMPAT_OUTPUT_USD_PER_MTOK },
  },
});
