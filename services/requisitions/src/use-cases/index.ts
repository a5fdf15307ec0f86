/**
 * The requisitions module's use cases, one file each (or a few that belong together), every one a function that
 * takes RequisitionDeps first. A state change is committed with its events in one update conditional on what was
 * read (the outbox); when it matches nothing the requisition changed in between: with a version from the client
 * that is a 409, without one the request is applied again to the new state (conditionalWrite).
 */
export * from './context';
export * from './shared';
export * from './edit';
export * from './reviews';
export * from './sign';
export * from './submit';
export * from './copy';
export * from './merge';
