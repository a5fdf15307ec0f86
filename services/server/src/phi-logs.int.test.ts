/**
 * No PHI and no secrets in the logs (issue 28, item 5; design rule 15: logs carry ids, never PHI). A system with
 * every worker, logging at debug, is sent what carries PHI and secrets: sign-ins with a password (right and wrong),
 * a requisition with its patient's name, date of birth, MRN, address and phone (created, refused once for a date
 * that does not exist, signed with the password, submitted: its events go through the consumers and the TRF PDF
 * is made), and patient searches by name. Then every value is looked for in the whole captured log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeForm } from '@onco/requisitions/testing';
import {
  b64,
  createUser,
  kafkaTestSystem,
  login,
  settled,
  TEST_PASSWORD,
  waitFor,
  type KafkaTestSystem,
} from '@onco/testing';

const RQ = '/portal/api/v1/testOrderForms';
const P = '/portal/api/v1';

/** The patient's values, unusual enough that a match in the log is theirs. */
const PATIENT = {
  firstName: 'Zorabelle',
  lastName: 'Quennevillex',
  dateOfBirth: '1947-03-19',
  mrn: 'MRN-PHI-48213',
  street: '8817 Wexfordia Lane',
  phone: '6195550142',
};
const WRONG_PASSWORD = 'Wr0ngPhiSecret!';

describe('no PHI or secrets in the logs, at LOG_LEVEL debug (real Kafka, store, Redis, workers)', () => {
  let sys: KafkaTestSystem;

  beforeAll(async () => {
    sys = await kafkaTestSystem({ WORKERS: 'true', LOG_LEVEL: 'debug' }, { ensureTopics: true });
  });
  afterAll(async () => {
    await sys?.close();
  });

  it('sign-ins, a requisition with PHI, patient searches: none of the values is logged', async () => {
    const account = { id: 'acc-phi', name: 'Privacy Oncology' };
    const user = await createUser(sys, 'ROLE_NPI', { account, physicianId: 'phy-phi' });

    // sign-ins: a wrong password, then the right one
    const wrong = await sys.app.inject({
      method: 'POST',
      url: '/uam/api/v1/authenticate',
      payload: { username: b64(user.loginId), password: b64(WRONG_PASSWORD) },
    });
    expect(wrong.statusCode).toBe(401);
    const { authorization } = await login(sys, user.loginId);
    const token = authorization.replace(/^Bearer /, '');
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      sys.app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });

    // a requisition with the patient's PHI
    const form = completeForm({ accountId: account.id, physicianId: 'phy-phi', patientId: null });
    form.patient = {
      ...form.patient,
      userId: null,
      firstName: PATIENT.firstName,
      lastName: PATIENT.lastName,
      name: `${PATIENT.firstName} ${PATIENT.lastName}`,
      dateOfBirth: PATIENT.dateOfBirth,
      mrn: PATIENT.mrn,
      phone: PATIENT.phone,
      address: { ...form.patient.address, street: PATIENT.street },
    };
    // refused first: a birth date that does not exist, with the rest of the PHI
    const refused = await call('POST', RQ, {
      ...form,
      patient: { ...form.patient, dateOfBirth: '1947-02-30' },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    const draft = await call('POST', RQ, form);
    expect(draft.statusCode, draft.body).toBe(200);
    const id = draft.json().id;
    const signed = await call('POST', `${RQ}/${id}/sign`, { password: TEST_PASSWORD });
    expect(signed.statusCode, signed.body).toBe(200);
    const submitted = await call('POST', `${RQ}/submit?createPdf=true`, { id });
    expect(submitted.statusCode, submitted.body).toBe(200);

    // the patient the submit made, found by name
    await waitFor(
      async () => {
        const r = await call('GET', `${P}/patients?q=${encodeURIComponent(PATIENT.lastName)}`);
        return r.statusCode === 200 && r.json().content?.length ? r : null;
      },
      { timeoutMs: 60_000, what: 'the patient found by name' },
    );
    const picker = await call('GET', `${P}/patients/picker?text=${encodeURIComponent(PATIENT.firstName)}`);
    expect(picker.statusCode, picker.body).toBe(200);
    const filtered = await call(
      'GET',
      `${P}/patients?filter=${encodeURIComponent(JSON.stringify({ q: `${PATIENT.firstName} ${PATIENT.lastName}` }))}`,
    );
    expect(filtered.statusCode, filtered.body).toBe(200);

    // everything the submit set off (events, consumers, the TRF PDF) has run and logged
    await waitFor(async () => (await call('GET', `${RQ}/${id}/trf`)).statusCode === 200, {
      timeoutMs: 120_000,
      intervalMs: 500,
      what: 'the TRF PDF',
    });
    await settled(sys, { timeoutMs: 60_000 });

    const log = sys.logs.text;
    expect(log).toContain('"level":20'); // debug lines were written
    expect(log).toContain(id); // ids are logged
    const secrets = {
      ...PATIENT,
      dateOfBirthUS: '03/19/1947',
      wrongPassword: WRONG_PASSWORD,
      password: TEST_PASSWORD,
      passwordBase64: b64(TEST_PASSWORD),
      wrongPasswordBase64: b64(WRONG_PASSWORD),
      token,
    };
    const found = Object.entries(secrets)
      .filter(([, v]) => log.toLowerCase().includes(v.toLowerCase()))
      .map(([k, v]) => {
        const line = sys.logs.lines.find((l) => l.toLowerCase().includes(v.toLowerCase()))!;
        return `${k} in: ${line.slice(0, 600)}`;
      });
    expect(found).toEqual([]);
  });
});
