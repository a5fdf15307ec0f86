/** The billing package's test fixtures and submission test system (`@onco/billing/testing`). */
export * from './fixtures';
export * from './submission-system';
