import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Icd10Catalog } from '../icd10-catalog';
import { ICD10_WARM_DELAY_MS, icd10Routes } from './icd10';

/** A catalog that only counts its loads (the route's start-up behaviour is what is under test). */
function countingCatalog(loadedBefore = 0) {
  const state = { loads: 0, size: loadedBefore };
  const catalog = {
    get size() {
      return state.size;
    },
    async ensureFresh() {
      state.loads += 1;
      state.size = 74_719;
    },
  } as unknown as Icd10Catalog;
  return { state, catalog };
}

async function appWith(catalog: Icd10Catalog) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await icd10Routes(app, { catalog });
  await app.ready();
  return app;
}

describe('the ICD-10-CM catalog is not read beside a new process’s first requests', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ready: nothing read; loaded once when the warm delay has passed', async () => {
    const { state, catalog } = countingCatalog();
    const app = await appWith(catalog);
    try {
      expect(state.loads).toBe(0);
      await vi.advanceTimersByTimeAsync(ICD10_WARM_DELAY_MS - 1);
      expect(state.loads).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(state.loads).toBe(1);
      await vi.advanceTimersByTimeAsync(ICD10_WARM_DELAY_MS * 3);
      expect(state.loads).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('a catalog a request loaded first is not read again by the warm', async () => {
    const { state, catalog } = countingCatalog(74_719);
    const app = await appWith(catalog);
    try {
      await vi.advanceTimersByTimeAsync(ICD10_WARM_DELAY_MS * 2);
      expect(state.loads).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('a process closed before the delay never reads it', async () => {
    const { state, catalog } = countingCatalog();
    const app = await appWith(catalog);
    await app.close();
    await vi.advanceTimersByTimeAsync(ICD10_WARM_DELAY_MS * 2);
    expect(state.loads).toBe(0);
  });
});
