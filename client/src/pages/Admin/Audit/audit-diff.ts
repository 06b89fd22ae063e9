/** One changed key of an audit entry: its value before and after (undefined: absent). */
export interface KeyChange {
  key: string;
  before: unknown;
  after: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** An object's values by dotted path (`models.demo:atlas`); arrays and other values are leaves. */
function flatten(value: Record<string, unknown>, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isRecord(v) && Object.keys(v).length > 0) flatten(v, path, out);
    else out[path] = v;
  }
  return out;
}

/**
 * What an entry changed, key by key: for two objects, only the (dotted) keys whose values
 * differ; for something created from nothing, each of its keys; otherwise the whole value as one
 * change under the key ''.
 */
export function diffOf(before: unknown, after: unknown): KeyChange[] {
  if (isRecord(before) && isRecord(after)) {
    const [b, a] = [flatten(before), flatten(after)];
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    return keys.filter((k) => !same(b[k], a[k])).map((key) => ({ key, before: b[key], after: a[key] }));
  }
  if (isRecord(after) && (before === null || before === undefined)) {
    return Object.entries(flatten(after)).map(([key, value]) => ({ key, before: undefined, after: value }));
  }
  if (same(before, after)) return [];
  return [{ key: '', before, after }];
}

/** A value, short: JSON for anything but a string, cut at `max` characters. */
export function shortValue(value: unknown, max = 120): string {
  if (value === undefined) return '∅';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
