import {
  BILLING_TYPES,
  BIOPSY_SITES,
  BIRTH_SEXES,
  BLOOD_COLLECTION_MODES,
  DELIVERY_METHODS,
  DELIVERY_METHOD_LABELS,
  DIAGNOSES,
  DISEASE_STATUSES,
  NORMAL_SPECIMEN_TYPES,
  ORDER_TYPES,
  PATIENT_STATUSES,
  RELATIONSHIPS,
  REQUISITION_UPLOAD_TYPES,
  SPECIMEN_REQUEST_TYPES,
  STAGES,
  TISSUE_OBTAIN_METHODS,
  TUMOR_SPECIMEN_TYPES,
} from '@onco/domain';
import { block, certification, escapeHtml, label, row } from '../form-html';
import { box, boxes, choice, line } from './write-in';

/**
 * The blocks of the blank form, numbered as on the paper form: check boxes for every enumeration the portal's
 * wizard offers (taken from @onco/domain so paper and portal never disagree), write-in lines for everything else.
 */

export const testSelectionSection = () =>
  block(
    1,
    'Test Selection',
    `<div class="test">
      <div>${box('NeXT Dx')}<div class="desc">Tumor-informed diagnostic test: whole-exome tumor and matched normal sequencing. Requires a tumor specimen (block 8) and a normal/blood specimen (block 7).</div></div>
      <div>${box('NeXT Personal Dx')}<div class="desc">Personalized monitoring test: tumor-informed, tracks up to 1,800 patient-specific somatic variants in plasma over time.</div></div>
    </div>
    ${choice('Order type (NeXT Personal Dx):', boxes(ORDER_TYPES))}
    ${row(line('If subsequent order: prior TRF # / LIMS project id', 2), line('Kit id (if a kit was sent)', 1))}`,
    'wide',
  );

export const patientSection = () =>
  block(
    2,
    'Patient Information',
    `${row(line('Last name', 1.4), line('First name', 1.2), line('MI', 0.3))}
    ${row(line('Date of birth (MM/DD/YYYY)'), line('Medical record # (MRN)'))}
    ${choice('Sex assigned at birth:', boxes(BIRTH_SEXES))}
    ${row(line('Street address'))}
    ${row(line('City', 1.3), line('State', 0.5), line('ZIP', 0.7))}
    ${row(line('Phone'), line('Email', 1.3))}
    ${row(line('Race'), line('Ethnicity'))}
    ${row(line('Clinical trial name (if any)'), line('Study patient id'))}`,
  );

export const providerSection = () =>
  block(
    3,
    'Ordering Provider',
    `${row(line('Provider name (last, first)', 1.6), line('NPI', 0.9))}
    ${row(line('Phone'), line('Fax'))}
    ${row(line('Email'))}
    ${choice(
      'Deliver report by:',
      boxes(DELIVERY_METHODS, (v) => DELIVERY_METHOD_LABELS[v as keyof typeof DELIVERY_METHOD_LABELS]),
    )}`,
  );

export const accountSection = () =>
  block(
    4,
    'Account & Location',
    `${row(line('Account / practice name', 1.6), line('Account #', 0.8))}
    ${row(line('Hospital / clinic location'))}
    ${row(line('Street address'))}
    ${row(line('City', 1.3), line('State', 0.5), line('ZIP', 0.7))}
    ${row(line('Telephone'), line('Fax'))}`,
  );

export const pathologistSection = () =>
  block(
    5,
    'Pathologist',
    `${row(line('Pathologist name', 1.6), line('NPI', 0.9))}
    ${row(line('Pathology lab / location'))}
    ${row(line('Phone'), line('Fax'))}
    ${row(line('Email'))}`,
  );

export const additionalProviderSection = () =>
  block(
    6,
    'Additional Provider (copy of report)',
    `${row(line('Provider name (last, first)', 1.6), line('NPI', 0.9))}
    ${row(line('Location'))}
    ${row(line('Phone'), line('Fax'))}
    ${row(line('Email'))}`,
  );

export const tumorSection = () =>
  block(
    8,
    'Tumor Specimen',
    `${choice('Diagnosis:', boxes(DIAGNOSES))}
    ${row(line('If other, diagnosis', 1.2), line('Primary tumor site', 1.2), line('Date of diagnosis (MM/DD/YYYY)', 0.9))}
    <div class="cap" style="margin-top:3pt"><b>ICD-10 diagnosis codes</b> (up to 6)</div>
    <div class="icd">${[1, 2, 3, 4, 5, 6].map((i) => `<div><div class="ln"></div><div class="cap">Code ${i}</div></div>`).join('')}</div>
    <div class="cols">
      <div>
        ${choice('Stage:', boxes(STAGES))}${row(line('If other, stage'))}
        ${choice('Disease status:', boxes(DISEASE_STATUSES))}
        ${row(line('Current therapies'), line('Prior therapies'))}
        ${choice('Planning or receiving immunotherapy:', box('Yes') + box('No'))}${row(line('Drug name'))}
        ${row(line('Request pathology review of the diagnosis (reason)'))}
      </div>
      <div>
        ${choice('Specimen request:', boxes(SPECIMEN_REQUEST_TYPES))}
        ${choice('Tissue:', boxes(TISSUE_OBTAIN_METHODS))}
        ${row(line('Specimen id / block id', 1.2), line('Collection date', 0.9), line('Tumor %', 0.5))}
        ${choice('Specimen type:', boxes(TUMOR_SPECIMEN_TYPES))}
        ${choice('Biopsy site:', boxes(BIOPSY_SITES))}${row(line('If other, biopsy site'))}
        ${choice('', box('Do not exhaust the specimen'))}
      </div>
    </div>`,
    'wide',
  );

export const normalSection = () =>
  block(
    7,
    'Normal / Blood Specimen',
    `${choice('Specimen type:', boxes(NORMAL_SPECIMEN_TYPES))}
    ${choice('Blood collection:', boxes(BLOOD_COLLECTION_MODES))}
    ${row(line('Collection date (MM/DD/YYYY)'), line('Collection time'))}
    ${choice('Pre-surgical or pre-biopsy sample:', box('Yes') + box('No'))}`,
  );

export const commentsSection = () =>
  block(
    0,
    'Clinical Notes / Comments for the Laboratory',
    `${row(line(''))}${row(line(''))}${row(line(''))}`,
    'wide',
  );

export const attachmentsSection = () =>
  block(
    10,
    'Attachments Checklist',
    `<div class="cap" style="font-size:6.8pt;margin-bottom:2pt">Please include with this form:</div>
    ${REQUISITION_UPLOAD_TYPES.map(
      (k) => `<div>${box(k === 'INSURANCE' ? 'Copy of insurance card(s), front and back' : label(k))}</div>`,
    ).join('')}`,
  );

const billingColumn = (title: string) => `<div>
      <h3>${escapeHtml(title)}</h3>
      ${choice('Bill to:', boxes(BILLING_TYPES))}
      ${row(line('Insurance provider / payor'))}
      ${row(line('Payor id'), line('Policy #'), line('Group #'))}
      ${row(line('Insured name', 1.4), line('Insured DOB', 0.8))}
      ${choice(
        'Relationship to patient:',
        boxes(RELATIONSHIPS, (v) => (v === 'SELF' ? 'Self' : label(v))),
      )}
      ${choice('Patient status:', boxes(PATIENT_STATUSES))}
      ${row(line('Prior authorization #'), line('Discharge date (if inpatient discharged)'))}
      ${row(line('Facility name (facility bill)'), line('Other (describe)'))}
    </div>`;

export const billingSection = () =>
  block(
    9,
    'Billing',
    `<div class="cols">${billingColumn('Primary')}${billingColumn('Secondary')}</div>`,
    'wide',
  );

/** `lab`: the laboratory's name, escaped */
export const consentSection = (lab: string) =>
  block(
    11,
    'Consent & Provider Signature',
    `<div class="consent">
      ${certification(lab)}
      <p>For NeXT Personal Dx the patient understands that further blood draws will be requested at monitoring time points.</p>
    </div>
    <div class="sig">${row(line('Ordering provider signature', 2), line('Date (MM/DD/YYYY)', 0.8))}</div>
    ${row(line('Printed name', 2), line('NPI', 0.8))}
    <div class="sig">${row(line('Patient signature (if required by state law)', 2), line('Date (MM/DD/YYYY)', 0.8))}</div>`,
  );
