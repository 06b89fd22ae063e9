import type { ModelSpec } from '@duet/contracts';
import { createAnthropicProvider } from './anthropic.ts';
import { createDemoProvider } from './demo/index.ts';
import { createOpenAIProvider } from './openai.ts';
import type { ModelProvider } from './provider.ts';

export interface ProviderSettings {
  apiKey: string | undefined;
  timeoutMs: number;
  demoSpeed: number;
}

/** The adapter for one roster entry. */
export function createProvider(spec: ModelSpec, s: ProviderSettings): ModelProvider {
  switch (spec.provider) {
    case 'demo':
      return createDemoProvider(spec, { speed: s.demoSpeed });
    case 'openai':
    case 'openai-compatible':
      // Local OpenAI-compatible servers (Ollama, llama.cpp) usually need no key, but the SDK wants one.
      return createOpenAIProvider(spec, { apiKey: s.apiKey ?? 'none', baseURL: spec.baseURL, timeoutMs: s.timeoutMs });
    case 'anthropic':
      return createAnthropicProvider(spec, { apiKey: s.apiKey ?? '', baseURL: spec.baseURL, timeoutMs: s.timeoutMs });
  }
}
