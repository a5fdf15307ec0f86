export * from './shape';
export * from './upload';
export * from './routes';
