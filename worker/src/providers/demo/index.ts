export { createDemoProvider } from './demo.provider.ts';
export { demoAnswer } from './answer.ts';
