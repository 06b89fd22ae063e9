import type { CreateBattleRequest } from '@duet/contracts';
import { describe, expect, it } from 'vitest';
import { createBattleBody, followUpBody } from './create-battle-body.ts';

const req: CreateBattleRequest = {
  tool: 'influencer-writing',
  inputs: { keywords: ['café', 'rain'] },
  text: 'A post about a rainy morning',
  lang: 'en',
};

describe('the body of a new battle', () => {
  it('is the request as JSON text when there is no image', () => {
    const body = createBattleBody(req, null);
    expect(typeof body).toBe('string');
    expect(JSON.parse(body as string)).toEqual(req);
    expect(createBattleBody(req)).toBe(body);
  });

  it('is a multipart form with the image and the inputs as JSON text when there is an image', async () => {
    const image = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'morning.png', { type: 'image/png' });
    const body = createBattleBody(req, image);
    expect(body).toBeInstanceOf(FormData);
    const form = body as FormData;
    expect([...form.keys()].sort()).toEqual(['image', 'inputs', 'lang', 'text', 'tool']);
    expect(form.get('tool')).toBe('influencer-writing');
    expect(form.get('text')).toBe('A post about a rainy morning');
    expect(form.get('lang')).toBe('en');
    expect(JSON.parse(form.get('inputs') as string)).toEqual({ keywords: ['café', 'rain'] });
    const sent = form.get('image') as File;
    expect(sent.name).toBe('morning.png');
    expect(sent.type).toBe('image/png');
    expect(new Uint8Array(await sent.arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  });

  it('sends the chosen models in the JSON body, and as JSON text in a multipart form', () => {
    const chosen: CreateBattleRequest = { ...req, models: ['demo:atlas', 'demo:sonnet'] };
    expect(JSON.parse(createBattleBody(chosen) as string)).toEqual(chosen);
    const form = createBattleBody(chosen, new File(['x'], 'a.gif', { type: 'image/gif' })) as FormData;
    expect([...form.keys()].sort()).toEqual(['image', 'inputs', 'lang', 'models', 'text', 'tool']);
    expect(JSON.parse(form.get('models') as string)).toEqual(['demo:atlas', 'demo:sonnet']);
  });

  it('sends empty inputs as an empty JSON object in a multipart form', () => {
    const image = new File(['x'], 'a.gif', { type: 'image/gif' });
    const form = createBattleBody({ ...req, inputs: {} }, image) as FormData;
    expect(form.get('inputs')).toBe('{}');
  });
});

describe('the body of a follow-up', () => {
  const followUp = { text: 'And in winter?', voteToken: 'x'.repeat(32) };

  it('is the question and the vote token as JSON text, or a multipart form with the image', () => {
    expect(JSON.parse(followUpBody(followUp) as string)).toEqual(followUp);
    const form = followUpBody(followUp, new File(['x'], 'snow.gif', { type: 'image/gif' })) as FormData;
    expect([...form.keys()].sort()).toEqual(['image', 'text', 'voteToken']);
    expect(form.get('text')).toBe('And in winter?');
    expect(form.get('voteToken')).toBe(followUp.voteToken);
    expect((form.get('image') as File).name).toBe('snow.gif');
  });
});
