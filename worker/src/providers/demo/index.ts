/**
 * The built-in demo models, by concern: `demo.provider.ts` streams an answer like a live model
 * (`stream.ts`); `answer.ts` writes it with the tool's writers (`tools/`, one file per tool),
 * which share the grammar (`korean.ts`, `english.ts`), the checkable parts (`arithmetic.ts`,
 * `equation.ts`, `ledger.ts`, `facts.ts`, `solve.ts`) and the word-chain game (`word-chain.ts`).
 */
export { createDemoProvider } from './demo.provider.ts';
export { demoAnswer } from './answer.ts';
