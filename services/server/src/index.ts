/** The server's public entry: the composition root and the demo seed (scripts and the test systems use them). */
export { buildSystem, type System } from './system';
export { demoLogin, seedDemo } from './seed';
