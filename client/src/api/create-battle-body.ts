import type { CreateBattleRequest, FollowUpRequest } from '@duet/contracts';

/**
 * The body of `POST /api/battles`: the request as JSON text when there is no image; with one, a
 * multipart form holding the image and the request's fields, `inputs` (and `models`) as JSON text.
 */
export function createBattleBody(req: CreateBattleRequest, image?: File | null): string | FormData {
  if (!image) return JSON.stringify(req);
  const form = new FormData();
  form.set('tool', req.tool);
  form.set('text', req.text);
  form.set('lang', req.lang);
  form.set('inputs', JSON.stringify(req.inputs));
  if (req.models) form.set('models', JSON.stringify(req.models));
  form.set('image', image);
  return form;
}

/** The body of `POST /api/battles/:id/turns`: JSON text without an image; a multipart form with one. */
export function followUpBody(req: FollowUpRequest, image?: File | null): string | FormData {
  if (!image) return JSON.stringify(req);
  const form = new FormData();
  form.set('text', req.text);
  form.set('voteToken', req.voteToken);
  form.set('image', image);
  return form;
}
