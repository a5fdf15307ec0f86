/**
 * The shared list building blocks' and the Users screen's texts (console/src/i18n/lists.en.ts and lists.zh.ts,
 * written with console/src/components and console/src/resources/users) merged into the console's messages.
 */
export const listsEn: Record<string, any> = {};
export const listsZh: Record<string, any> = {};
