/**
 * Text detectors for guardrails (issue 38): pure functions over strings, no I/O. A detector reports where a rule
 * matches; the guardrail policy decides whether to block, mask or log. Matched text never leaves these functions
 * except through the offsets, so callers can record a hit without storing what matched.
 */

export type { Finding, PiiEntity, TextDetector } from './detectors-findings';
export { combineDetectors, maskFindings, resolveOverlaps } from './detectors-findings';
export { PII_ENTITIES, PII_PLACEHOLDERS, piiDetector } from './pii-detector';
export { regexDetector } from './regex-detector';
export { StreamWindow } from './stream-window';
