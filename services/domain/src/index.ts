export * from './enums';
export * from './messages';
export * from './password';
export * from './permissions';
export * from './users';
export * from './requisition/index';
export * from './lab/tests';
export * from './lab/samples';
