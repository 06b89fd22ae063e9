export * from './ratings.ts';
export * from './style-control.ts';
