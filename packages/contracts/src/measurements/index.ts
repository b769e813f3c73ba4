export * from './types.ts';
export * from '../texts/measurements.ts';
export * from './programs.ts';
export * from './thresholds.ts';
// The kinds' own exports (constants, texts) come through the registry, so a new kind is its file,
// its test and its lines in registry.ts.
export * from './registry.ts';
