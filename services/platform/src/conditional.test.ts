import { describe, expect, it } from 'vitest';
import { conditionalWrite } from './conditional';
import { AppError } from './errors';

/** A record with a version, and a writer that loses the race `losses` times (someone else wrote first). */
function racing(losses: number) {
  const rec = { version: 1, value: 0 };
  let reads = 0;
  const attempt = async () => {
    reads += 1;
    const seen = rec.version;
    if (losses > 0) {
      losses -= 1;
      rec.version += 1; // another writer got in between the read and the write
    }
    if (rec.version !== seen) return null; // the conditional write matched nothing
    rec.value += 1;
    rec.version += 1;
    return rec.version;
  };
  return { rec, attempt, reads: () => reads };
}

describe('conditionalWrite: read, decide, write conditionally; read again on a lost race', () => {
  it('reads and decides again after a lost race, and writes once', async () => {
    const r = racing(3);
    expect(await conditionalWrite(r.attempt)).toBe(r.rec.version);
    expect(r.reads()).toBe(4);
    expect(r.rec.value).toBe(1);
  });

  it('strict (the client sent the version it read): a 409 at the first lost race, nothing written', async () => {
    const r = racing(1);
    const err = await conditionalWrite(r.attempt, { strict: true, message: 'Reload it' }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ statusCode: 409, message: 'Reload it' });
    expect(r.reads()).toBe(1);
    expect(r.rec.value).toBe(0);
  });

  it('gives up with a 409 after the rounds it is given', async () => {
    const r = racing(100);
    await expect(conditionalWrite(r.attempt, { attempts: 5 })).rejects.toMatchObject({ statusCode: 409 });
    expect(r.reads()).toBe(5);
    expect(r.rec.value).toBe(0);
  });

  it('a refusal thrown by the attempt ends the loop as it is', async () => {
    let reads = 0;
    const refusal = new Error('Status change not allowed');
    await expect(
      conditionalWrite(async () => {
        reads += 1;
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(reads).toBe(1);
  });
});
