/** The lesson: typed content and the pure logic that goes with it. */
export * from './challenges';
export * from './chapters';
export * from './concepts';
export * from './exit-criteria';
export * from './predict';
export * from './progress';
export * from './quiz';
export * from './sources';
export * from './sql-lines';
export * from './trace-read';
export type * from './types';
