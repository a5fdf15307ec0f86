/** The messages module's use cases: each takes the module's deps first (MessagesDeps), then the user and its input. */
export * from './deps';
export * from './threads';
export * from './create-thread';
export * from './reply';
export * from './mark-read';
export * from './unread';
export * from './comments';
