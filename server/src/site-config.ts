/**
 * What the browser shows about this deployment beyond Duet itself: the sister services' addresses
 * (signup benefit dialog, introduction page, footer, account menu) and the operator's contact and
 * company details (footer). All optional: what is not configured is not shown. The specification
 * names the sister services but not their addresses, so there are no defaults.
 */
import { ZOptionalTextSchema as optional } from '@duet/platform/env';
import type { SisterLinks, SiteContact } from '@duet/contracts';
import { z } from 'zod';

/** An absolute http(s) address, or unset. */
const link = optional.pipe(
  z
    .string()
    .url('an absolute address, e.g. https://write.example.com')
    .refine((v) => /^https?:\/\//i.test(v), 'an http or https address')
    .optional(),
);
/** One line of footer text, or unset. */
const line = optional.pipe(z.string().max(200, 'at most 200 characters').optional());

export const ZSiteEnvSchema = z.object({
  /** The sister AI writing assistant's address. */
  SISTER_WRITING_URL: link,
  /** The sister AI drawing assistant's address. */
  SISTER_DRAWING_URL: link,
  SUPPORT_EMAIL: optional.pipe(z.string().email('an e-mail address, e.g. help@example.com').optional()),
  SUPPORT_PHONE: optional.pipe(z.string().regex(/^\+?[0-9][0-9 ()./-]{2,30}$/, 'a phone number, e.g. 02-123-4567').optional()),
  COMPANY_NAME: line,
  COMPANY_ADDRESS: line,
  COMPANY_REPRESENTATIVE: line,
  COMPANY_BUSINESS_NUMBER: line,
  COMPANY_ECOMMERCE_NUMBER: line,
});
export type SiteEnv = z.infer<typeof ZSiteEnvSchema>;

export interface SiteConfig {
  sisterLinks: SisterLinks;
  contact: SiteContact;
}

/** Unset keys stay out of the result, so the JSON the browser gets holds only what is configured. */
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function siteConfig(e: SiteEnv): SiteConfig {
  return {
    sisterLinks: defined({ writing: e.SISTER_WRITING_URL, drawing: e.SISTER_DRAWING_URL }),
    contact: {
      ...defined({ email: e.SUPPORT_EMAIL, phone: e.SUPPORT_PHONE }),
      company: defined({
        name: e.COMPANY_NAME,
        address: e.COMPANY_ADDRESS,
        representative: e.COMPANY_REPRESENTATIVE,
        businessNumber: e.COMPANY_BUSINESS_NUMBER,
        ecommerceNumber: e.COMPANY_ECOMMERCE_NUMBER,
      }),
    },
  };
}
