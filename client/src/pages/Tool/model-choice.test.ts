import type { Meta } from '@duet/contracts';
import { describe, expect, it } from 'vitest';
import type { ModelOption } from './model-choice.ts';
import { choosableModels, chosenPair, NO_PICKS, pickModel } from './model-choice.ts';

const model = (id: string): ModelOption => ({ id, label: id.toUpperCase(), family: 'gpt' });
const three = [model('x'), model('y'), model('z')];
const meta = (over: Partial<Meta>): Meta =>
  ({ demoModels: false, mode: 'blind', accounts: false, sisterLinks: {}, contact: { company: {} }, challenge: false, models: three, ...over }) as Meta;

describe('the models a visitor may choose', () => {
  it('are the deployment’s models in a blind deployment with two or more of them', () => {
    expect(choosableModels(meta({}))).toEqual(three);
  });

  it('are none with fewer than two models, in a named deployment, or before the meta loads', () => {
    expect(choosableModels(meta({ models: [model('x')] }))).toEqual([]);
    expect(choosableModels(meta({ mode: 'named' }))).toEqual([]);
    expect(choosableModels(undefined)).toEqual([]);
  });
});

describe('the chosen pair', () => {
  it('is the first two models until the visitor picks', () => {
    expect(chosenPair(three, NO_PICKS)).toEqual(['x', 'y']);
  });

  it('is the picks while they are listed, and never one model twice', () => {
    expect(chosenPair(three, { a: 'z', b: 'x' })).toEqual(['z', 'x']);
    expect(chosenPair(three, { a: 'y', b: 'y' })).toEqual(['y', 'x']);
    expect(chosenPair(three, { a: 'gone', b: 'gone' })).toEqual(['x', 'y']);
  });

  it('is none with fewer than two models', () => {
    expect(chosenPair([model('x')], NO_PICKS)).toBeNull();
  });
});

describe('picking a model for a side', () => {
  it('keeps the other side when it holds another model', () => {
    expect(pickModel(['x', 'y'], 'a', 'z')).toEqual({ a: 'z', b: 'y' });
    expect(pickModel(['x', 'y'], 'b', 'z')).toEqual({ a: 'x', b: 'z' });
  });

  it('swaps the sides when it picks the model the other side holds', () => {
    expect(pickModel(['x', 'y'], 'a', 'y')).toEqual({ a: 'y', b: 'x' });
    expect(pickModel(['x', 'y'], 'b', 'x')).toEqual({ a: 'y', b: 'x' });
  });
});
