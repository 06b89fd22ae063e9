import type { SharedBattleResponse } from '@duet/contracts';
import { FALLBACK_LANGUAGE, LANGUAGES } from '@duet/contracts/limits';
import type { Language } from '@duet/contracts/limits';
import { Router } from 'express';
import type { Request } from 'express';
import { z } from 'zod';
import { battleIdParam } from '../../http/battle-id.ts';
import { AppError } from '../../http/errors.ts';
import { BARE_SHELL } from './share-page.ts';
import type { ShareService } from './share.service.ts';

const ZLanguageSchema = z.enum(LANGUAGES);

const battleId = (raw: unknown): string => battleIdParam(raw, 'No such battle, or it is not public');

/**
 * The page's language: `?lang=` when it names one (a link shared in one language), else the one the
 * reader's browser (or a link preview's crawler) asks for first, else the fallback. An unknown
 * `?lang=` is refused when `strict`, else passed over.
 */
function languageOf(req: Request, strict: boolean): Language {
  const asked = req.query.lang;
  if (asked !== undefined) {
    const parsed = ZLanguageSchema.safeParse(asked);
    if (parsed.success) return parsed.data;
    if (strict) throw new AppError(400, 'validation_failed', `lang: one of ${LANGUAGES.join(', ')}`);
  }
  const accepted = req.acceptsLanguages(...LANGUAGES);
  return accepted ? (accepted as Language) : FALLBACK_LANGUAGE;
}

/** `GET /api/battles/:id/shared`: a voted, public battle for its page, as history shows it. */
export function shareApiRoutes(service: ShareService): Router {
  const router = Router();
  router.get('/battles/:id/shared', async (req, res) => {
    const battle = await service.battle(battleId(req.params.id));
    res.set('Cache-Control', 'no-cache');
    res.json({ battle } satisfies SharedBattleResponse);
  });
  return router;
}

/**
 * `GET /b/:id`: the shared battle's page (the app shell with its link-preview tags; the app shows the
 * battle), and `GET /b/:id/preview.png`, the image those tags name. Absolute links start with
 * `publicUrl`, else with the address the request came to.
 */
export function sharePageRoutes(service: ShareService, opts: { publicUrl: string | null; shell: () => string | null }): Router {
  const router = Router();
  router.get('/b/:id', async (req, res) => {
    res.set('Vary', 'Accept-Language');
    res.set('Cache-Control', 'no-cache');
    const origin = opts.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    try {
      res.type('html').send(await service.page(battleId(req.params.id), languageOf(req, false), origin));
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 404) throw err;
      // The app still loads and says the battle is not there; a crawler sees the 404.
      res.status(404).type('html').send(opts.shell() ?? BARE_SHELL);
    }
  });
  router.get('/b/:id/preview.png', async (req, res) => {
    const id = battleId(req.params.id);
    const lang = languageOf(req, true);
    const { png, cached } = await service.preview(id, lang);
    res.set('Vary', 'Accept-Language');
    res.set('Cache-Control', 'public, max-age=86400');
    res.set('X-Preview-Cache', cached ? 'hit' : 'miss');
    res.type('png').send(png);
  });
  return router;
}
