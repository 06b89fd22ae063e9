import type { CreateBattleResponse, ErrorResponse } from '@duet/contracts';

export interface ApiResult<T> {
  status: number;
  body: T;
}

export async function postJson<T = unknown>(url: string, body: unknown): Promise<ApiResult<T>> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T };
}

export async function getJson<T = unknown>(url: string): Promise<ApiResult<T>> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as T };
}

/** Sends a battle as a multipart form with an image, as the browser does. */
export async function postBattleWithImage(
  baseUrl: string,
  fields: { tool: string; text?: string; lang?: string; inputs?: object },
  image: { data: Buffer; filename: string; type: string },
): Promise<ApiResult<CreateBattleResponse & ErrorResponse>> {
  const form = new FormData();
  form.set('tool', fields.tool);
  if (fields.text !== undefined) form.set('text', fields.text);
  if (fields.lang) form.set('lang', fields.lang);
  if (fields.inputs) form.set('inputs', JSON.stringify(fields.inputs));
  form.set('image', new Blob([image.data], { type: image.type }), image.filename);
  const res = await fetch(`${baseUrl}/api/battles`, { method: 'POST', body: form });
  return { status: res.status, body: (await res.json()) as CreateBattleResponse & ErrorResponse };
}

/** The smallest valid PNG: 1×1, transparent. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** The image bytes stored for a battle (what Duet kept of an upload: the cleaned image). */
export async function storedImage(db: { query: (sql: string, values: unknown[]) => Promise<{ rows: Array<{ data: Buffer }> }> }, battleId: string): Promise<Buffer> {
  const { rows } = await db.query('SELECT data FROM battle_images WHERE battle_id = $1', [battleId]);
  if (!rows[0]) throw new Error(`battle ${battleId} has no stored image`);
  return rows[0].data;
}
