/**
 * Sample rules (spec 2 sections 2.8, 4 "Sample status", 5 "Sample form" and "Copy samples", 6, 8, 9). Used by
 * the lab service, which enforces them, and by the console, which shows them (disabled options, error texts).
 * Dates are calendar days 'YYYY-MM-DD'; the clock is passed in as `today`.
 */

export * from './sample-rules';
export * from './sample-form';
export * from './sample-actions';
export * from './sample-domain';
export * from './sample-workflow';
