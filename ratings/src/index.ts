export * from './ratings.ts';
export * from './style-control.ts';
export * from './sandwich.ts';
export * from './top-robustness.ts';
