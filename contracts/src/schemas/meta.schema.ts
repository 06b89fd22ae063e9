import { z } from 'zod';
import { FAMILIES } from '../roster.ts';
import { ZBattleModeSchema } from './battle.schema.ts';

/** The sister services a Duet account also opens: their addresses, each only when configured. */
export const ZSisterLinksSchema = z.object({
  /** The AI writing assistant (a month free with a Duet signup). */
  writing: z.string().url().optional(),
  /** The AI drawing assistant (130 tokens with a Duet signup). */
  drawing: z.string().url().optional(),
});
export type SisterLinks = z.infer<typeof ZSisterLinksSchema>;

/** Who runs this deployment and how to reach them, as the footer shows it: only what is configured. */
export const ZSiteContactSchema = z.object({
  email: z.string().email().optional(),
  phone: z.string().optional(),
  company: z.object({
    name: z.string().optional(),
    address: z.string().optional(),
    representative: z.string().optional(),
    businessNumber: z.string().optional(),
    ecommerceNumber: z.string().optional(),
  }),
});
export type SiteContact = z.infer<typeof ZSiteContactSchema>;

/** `GET /api/meta`: what the browser needs to know about this deployment. */
export const ZMetaSchema = z.object({
  /** The built-in demo models answer (no provider key configured). */
  demoModels: z.boolean(),
  mode: ZBattleModeSchema,
  /** Signup and login are available (Firebase or its emulator configured). */
  accounts: z.boolean(),
  sisterLinks: ZSisterLinksSchema,
  contact: ZSiteContactSchema,
  /** A new battle needs a solved proof-of-work challenge (`GET /api/challenge`). */
  challenge: z.boolean(),
  /** The models a visitor may choose for a battle (`models` of `POST /api/battles`), in roster order. */
  models: z.array(z.object({ id: z.string(), label: z.string(), family: z.enum(FAMILIES) })).default([]),
  /** The most turns a battle may have: its first question and the follow-ups (`MAX_TURNS`). */
  maxTurns: z.number().int().min(1).default(8),
});
export type Meta = z.infer<typeof ZMetaSchema>;
