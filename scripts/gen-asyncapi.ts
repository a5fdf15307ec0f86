/**
 * Writes docs/asyncapi.json (AsyncAPI 3.0) from the zod event schemas in @onco/events.
 * Usage: npm run asyncapi
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAsyncApiDocument } from '@onco/events';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = resolve(root, 'docs', 'asyncapi.json');
const doc = buildAsyncApiDocument();
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(doc, null, 2)}\n`);
console.log(`wrote ${target} (${Object.keys(doc.channels).length} channels)`);
