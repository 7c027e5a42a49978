// The checker lives in core/testweb so that the benchmarks (bench/soak) use the same one.
export { politenessViolations, type PolitenessRules } from '../../core/testweb/politeness-check.js';
