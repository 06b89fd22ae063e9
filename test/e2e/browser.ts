import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { TestDuet, TestDuetOptions } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';

/** Debian's Chromium: Playwright cannot download its own browser here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Debian's Chromium, headless; `extraArgs` go on its command line after the usual ones. */
export const launchBrowser = (extraArgs: string[] = []): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });

/** A fresh browser profile: its own storage, language and screen size. */
export async function newPage(
  browser: Browser,
  opts: { locale?: string; viewport?: { width: number; height: number }; baseURL: string; reducedMotion?: 'reduce' | 'no-preference' },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    locale: opts.locale ?? 'en-US',
    viewport: opts.viewport ?? DESKTOP,
    baseURL: opts.baseURL,
    reducedMotion: opts.reducedMotion ?? 'no-preference',
  });
  const page = await context.newPage();
  return { context, page };
}

const CLIENT_DIST = fileURLToPath(new URL('../../client/dist', import.meta.url));

/** A whole Duet serving the built client, with demo models at a brisk but visible pace. */
export const startAppDuet = (env: Record<string, string> = {}, opts: Omit<TestDuetOptions, 'env'> = {}): Promise<TestDuet> =>
  startTestDuet({ ...opts, env: { CLIENT_DIST, DEMO_SPEED: '6', LEADERBOARD_INTERVAL_MS: '500', ...env } });

/** The fake LLM server's model names for the two models of {@link fakeModels}. */
export const COMPAT = 'compat-fake';
export const CLAUDE = 'claude-fake';

/** Settings for two models served by the fake LLM server through the real SDKs: an OpenAI-compatible one and Anthropic. */
export const fakeModels = (fake: FakeLlmServer): Record<string, string> => ({
  DUET_MODELS: JSON.stringify([
    { id: 'fake:compat', label: 'Fake Compat', provider: 'openai-compatible', model: COMPAT, family: 'gpt', baseURL: fake.openaiBaseURL },
    { id: 'fake:claude', label: 'Fake Claude', provider: 'anthropic', model: CLAUDE, family: 'claude', baseURL: fake.anthropicBaseURL },
  ]),
  OPENAI_COMPAT_API_KEY: fake.apiKey,
  ANTHROPIC_API_KEY: fake.apiKey,
});

/** Asks `question` on the ask-anything page (in either language) and sends it. */
export async function askAnything(page: Page, question: string): Promise<void> {
  await page.goto('/anything-question-duet');
  await page.getByRole('textbox', { name: /Your question|질문/ }).fill(question);
  await page.getByTestId('submit').click();
}

/** A side's pane state as the page shows it (`waiting`, `streaming`, `saving`, `done`, `error`). */
export const paneState = (page: Page, side: 'a' | 'b'): Promise<string | null> => page.getByTestId(`answer-${side}`).getAttribute('data-state');
