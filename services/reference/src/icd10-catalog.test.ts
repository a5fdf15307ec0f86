import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseListQuery } from '@onco/platform';
import { Icd10Catalog } from './icd10-catalog';
import { parseIcd10Text } from './importers/icd10';
import { fixtureFiles } from './paths';
import { icd10Resource } from './routes/icd10';

/** A stand-in for the mongoose model: the catalog reads the collection once and the revision stamp per call. */
function fakeModel(rows: Array<Record<string, unknown>>) {
  const state = { revision: 'r1', reads: 0, rows };
  const model = {
    collection: {
      find: () => ({
        toArray: async () => {
          state.reads += 1;
          return state.rows;
        },
      }),
    },
    db: { collection: () => ({ findOne: async () => ({ _id: 'icd10', revision: state.revision }) }) },
  };
  return { model: model as any, state };
}

const docs = parseIcd10Text(readFileSync(fixtureFiles().icd10, 'utf8')).map((r, i) => ({
  _id: `id-${i}`,
  ...r,
  deleted: false,
}));
const q = (qs: Record<string, unknown>) => parseListQuery(icd10Resource, qs);

describe('ICD-10-CM catalog (in-memory search)', () => {
  it('searches q case-insensitively over formattedCode, code and description, sorted by code', async () => {
    const { model } = fakeModel(docs);
    const cat = new Icd10Catalog(model);
    const r = await cat.list(q({ filter: JSON.stringify({ q: 'C50.9' }) }));
    expect(r.content.map((c) => c.formattedCode)).toEqual(['C50.911', 'C50.912', 'C50.919']);
    expect((await cat.list(q({ filter: JSON.stringify({ q: 'c50911' }) }))).totalElements).toBe(1);
    expect(
      (await cat.list(q({ filter: JSON.stringify({ q: 'MELANOMA' }) }))).content.map((c) => c.formattedCode),
    ).toEqual(['C43.4', 'C43.59', 'C43.9', 'D03.9', 'Z85.820']);
  });

  it('filters formattedCode in(...), !in(...) and eq, and id', async () => {
    const cat = new Icd10Catalog(fakeModel(docs).model);
    const inList = await cat.list(
      q({ filter: JSON.stringify({ formattedCode: 'in(C61, Z08, C50.911, NOPE)' }) }),
    );
    expect(inList.content.map((c) => c.formattedCode)).toEqual(['C50.911', 'C61', 'Z08']);
    expect((await cat.list(q({ filter: JSON.stringify({ formattedCode: '!in(C61)' }) }))).totalElements).toBe(
      41,
    );
    expect((await cat.list(q({ filter: JSON.stringify({ code: 'C61' }) }))).totalElements).toBe(1);
    expect((await cat.list(q({ filter: JSON.stringify({ id: 'id-3' }) }))).content[0].id).toBe('id-3');
  });

  it('pages and sorts in both dialects; soft-deleted codes are hidden', async () => {
    const cat = new Icd10Catalog(
      fakeModel([
        ...docs,
        { _id: 'gone', code: 'C999', formattedCode: 'C99.9', description: 'x', deleted: true },
      ]).model,
    );
    const page = await cat.list(q({ page: '1', size: '10' }));
    expect(page.totalElements).toBe(42);
    expect(page.content).toHaveLength(10);
    expect(page.content[0].formattedCode).toBe((await cat.list(q({}))).content[10].formattedCode);
    const desc = await cat.list(q({ range: '[0,2]', sort: '["formattedCode","DESC"]' }));
    expect(desc.content.map((c) => c.formattedCode)).toEqual(['Z85.820', 'Z85.46', 'Z85.3']);
    expect(desc.content[0]).toEqual({
      id: expect.any(String),
      code: 'Z85820',
      formattedCode: 'Z85.820',
      description: expect.any(String),
    });
  });

  it('reads the collection once, and again only after an import stamps a new revision', async () => {
    const { model, state } = fakeModel(docs);
    const cat = new Icd10Catalog(model);
    await Promise.all([cat.list(q({})), cat.list(q({})), cat.list(q({}))]);
    expect(state.reads).toBe(1);
    state.rows = docs.slice(0, 5);
    await cat.list(q({}));
    expect(state.reads).toBe(1);
    state.revision = 'r2';
    expect((await cat.list(q({}))).totalElements).toBe(5);
    expect(state.reads).toBe(2);
  });
});
