/**
 * The shared list building blocks' and the Users screen's texts (written with console/src/components and
 * console/src/resources/users), merged into the console's messages.
 */
export { listsEn } from './lists.en';
export { listsZh } from './lists.zh';
