/** The sync engine's public surface: the clock estimator, the engine, the readiness reporter, the thresholds. */
export * from './clock.js';
export * from './engine.js';
export * from './readiness.js';
export * as thresholds from './thresholds.js';
