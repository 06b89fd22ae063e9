import { ZMetaSchema } from '@duet/contracts';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './config.ts';

describe('site settings', () => {
  it('links no sister service and shows no contact details unless configured', () => {
    expect(loadGatewayConfig({}).site).toEqual({ sisterLinks: {}, contact: { company: {} } });
    // Empty values count as unset, not as empty links.
    expect(loadGatewayConfig({ SISTER_WRITING_URL: ' ', SUPPORT_EMAIL: '', COMPANY_NAME: '' }).site).toEqual({
      sisterLinks: {},
      contact: { company: {} },
    });
  });

  it('carries exactly the configured links and details, in the shape the browser reads', () => {
    const { site } = loadGatewayConfig({
      SISTER_DRAWING_URL: 'https://draw.example.com/start',
      SUPPORT_PHONE: '+82 2-123-4567',
      COMPANY_NAME: 'Duet Labs',
      COMPANY_BUSINESS_NUMBER: '123-45-67890',
    });
    expect(site).toEqual({
      sisterLinks: { drawing: 'https://draw.example.com/start' },
      contact: { phone: '+82 2-123-4567', company: { name: 'Duet Labs', businessNumber: '123-45-67890' } },
    });
    const meta = { demoModels: true, mode: 'blind', accounts: false, challenge: false, models: [], maxTurns: 8, ...site };
    expect(ZMetaSchema.parse(meta)).toEqual(meta);
  });

  it('refuses addresses a browser should not follow, and malformed contacts, naming each key', () => {
    const run = () =>
      loadGatewayConfig({
        SISTER_WRITING_URL: 'javascript:alert(1)',
        SISTER_DRAWING_URL: 'draw.example.com',
        SUPPORT_EMAIL: 'not-an-address',
        SUPPORT_PHONE: 'call us',
        COMPANY_ADDRESS: 'x'.repeat(201),
      });
    expect(run).toThrow(/SISTER_WRITING_URL: an http or https address/);
    expect(run).toThrow(/SISTER_DRAWING_URL: an absolute address/);
    expect(run).toThrow(/SUPPORT_EMAIL/);
    expect(run).toThrow(/SUPPORT_PHONE/);
    expect(run).toThrow(/COMPANY_ADDRESS: at most 200 characters/);
  });
});
