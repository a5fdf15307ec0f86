export * from './messages';
export * from './dates';
export * from './schema';
export * from './options';
export * from './validate';
export * from './normalize';
export * from './wizard';
export * from './actions';
