import { describe, expect, it } from 'vitest';
import { measureLandingBundle } from '../../bench/landing-bundle.ts';

describe('the landing route’s bundle', () => {
  it('loads under 200 KB of gzipped JavaScript before it can draw', () => {
    const m = measureLandingBundle();
    // The home page must be a chunk of its own and the heavy battle code must stay out of it.
    expect(m.files.some((f) => /HomePage-.*\.js$/.test(f.file))).toBe(true);
    expect(m.files.some((f) => /ToolPage|HistoryPage|katex/i.test(f.file))).toBe(false);
    expect(m.jsGzip).toBeLessThan(200 * 1024);
  });
});
