import { Alert, Grid, Tooltip, Typography } from '@mui/material';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import {
  BIOPSY_SITES,
  BLOOD_COLLECTION_MODES,
  DIAGNOSES,
  DISEASE_STATUSES,
  SPECIMEN_REQUEST_TYPES,
  STAGES,
  TISSUE_OBTAIN_METHODS,
  dateWindows,
  icd10List,
  normalSpecimenTypeOptions,
  tumorSpecimenTypeOptions,
} from '@onco/domain';
import { TOOLTIP_DELAY_MS } from '../../../../components';
import { useWizard } from '../context';
import { useState } from 'react';
import { DiagnosisDialog, parseStoredDx } from '../DiagnosisDialog';
import { CheckF, DateF, ListF, PickerField, RadioF, Section, SelectF, TextF } from '../fields';
import { Icd10Dialog } from '../Icd10Dialog';
import { useWizardT } from '../useWizardT';

export function SpecimenStep() {
  const { form, set, patch, rules, can } = useWizard();
  const t = useWizardT();
  const info = form.orderInformation ?? {};
  const tumor = form.tumorSpecimen ?? {};
  const normal = form.normalSpecimen ?? {};
  const windows = dateWindows(rules.today);
  const blood = windows.bloodCollection(normal.specimenType);
  const required = !rules.permissions.includes('IS_SPECIMEN_INFO_OPTIONAL');
  const [icdOpen, setIcdOpen] = useState(false);
  const [dxOpen, setDxOpen] = useState(false);
  return (
    <>
      <Section title="wizard.sections.tumor">
        <RadioF
          path="tumorSpecimen.diagnosis"
          label="wizard.fields.diagnosis"
          options={DIAGNOSES}
          required={required}
        />
        {tumor.diagnosis === 'OTHER' && (
          <TextF path="tumorSpecimen.otherDiagnosis" label="wizard.fields.otherDiagnosis" required cols={6} />
        )}
        <PickerField
          path="tumorSpecimen.icd10Codes"
          label="wizard.fields.icd10Codes"
          required={required}
          display={icd10List(tumor.icd10Codes).join(', ')}
          onOpen={() => setIcdOpen(true)}
        />
        <PickerField
          path="tumorSpecimen.octDxBreadCrumb"
          label="wizard.dx.title"
          display={parseStoredDx(tumor.octDxBreadCrumb)?.octDxBreadCrumb ?? ''}
          onOpen={() => setDxOpen(true)}
        />
        <Icd10Dialog
          open={icdOpen}
          value={tumor.icd10Codes}
          onClose={() => setIcdOpen(false)}
          onDone={(codes) => {
            set('tumorSpecimen.icd10Codes', codes || null);
            setIcdOpen(false);
          }}
        />
        <DiagnosisDialog
          open={dxOpen}
          stored={tumor.octDxBreadCrumb}
          onClose={() => setDxOpen(false)}
          allowFreeText={can('CAN_ADD_DIAGNOSIS')}
          onFreeText={(text) => {
            patch({ 'tumorSpecimen.diagnosis': 'OTHER', 'tumorSpecimen.otherDiagnosis': text });
            setDxOpen(false);
          }}
          onDone={(dx) => {
            set('tumorSpecimen.octDxBreadCrumb', JSON.stringify(dx));
            setDxOpen(false);
          }}
        />
        <TextF path="tumorSpecimen.primaryTumorSite" label="wizard.fields.primaryTumorSite" />
        <TextF path="tumorSpecimen.drugName" label="wizard.fields.drugName" />
        <DateF
          path="tumorSpecimen.dateOfDiagnosis"
          label="wizard.fields.dateOfDiagnosis"
          min={windows.dateOfDiagnosis.min}
          max={windows.dateOfDiagnosis.max}
        />
        <SelectF
          path="tumorSpecimen.diseaseStatus"
          label="wizard.fields.diseaseStatus"
          options={DISEASE_STATUSES}
        />
        <ListF path="tumorSpecimen.currentTherapies" label="wizard.fields.currentTherapies" />
        <ListF path="tumorSpecimen.priorTherapies" label="wizard.fields.priorTherapies" />
        <CheckF
          path="tumorSpecimen.planOrReceivingImmunotherapy"
          label="wizard.fields.planOrReceivingImmunotherapy"
        />
        <SelectF
          path="tumorSpecimen.stage"
          label="wizard.fields.stage"
          options={STAGES}
          onChangeExtra={(v) => v !== 'OTHER' && set('tumorSpecimen.otherStage', null)}
        />
        <TextF
          path="tumorSpecimen.otherStage"
          label="wizard.fields.otherStage"
          disabled={tumor.stage !== 'OTHER'}
          required={tumor.stage === 'OTHER'}
        />
        <SelectF
          path="tumorSpecimen.specimenBiopsySite"
          label="wizard.fields.specimenBiopsySite"
          options={BIOPSY_SITES}
        />
        {tumor.specimenBiopsySite === 'OTHER' && (
          <TextF path="tumorSpecimen.otherBiopsySite" label="wizard.fields.otherBiopsySite" required />
        )}
        <SelectF
          path="tumorSpecimen.specimenRequestType"
          label="wizard.fields.specimenRequestType"
          options={SPECIMEN_REQUEST_TYPES}
        />
        <SelectF
          path="tumorSpecimen.ffpeTissueObtainMethod"
          label="wizard.fields.ffpeTissueObtainMethod"
          options={TISSUE_OBTAIN_METHODS}
        />
        <SelectF
          path="tumorSpecimen.specimenType"
          label="wizard.fields.tumorSpecimenType"
          options={tumorSpecimenTypeOptions(info)}
          helperText={
            <Tooltip title={t('wizard.fields.ffpeTooltip')} enterDelay={TOOLTIP_DELAY_MS}>
              <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
                <InfoOutlined sx={{ fontSize: 14 }} /> FFPE
              </span>
            </Tooltip>
          }
        />
        <TextF path="tumorSpecimen.specimenId" label="wizard.fields.specimenId" />
        <DateF
          path="tumorSpecimen.collectionDate"
          label="wizard.fields.collectionDate"
          min={windows.tumorCollection.min}
          max={windows.tumorCollection.max}
        />
        <TextF
          path="tumorSpecimen.content"
          label="wizard.fields.content"
          type="number"
          transform={(v) => (v === '' ? null : Number(v))}
          helperText={t('wizard.rules.minimumTumorContent')}
        />
        <CheckF path="tumorSpecimen.doNotExhaust" label="wizard.fields.doNotExhaust" cols={4} />
        {can('CAN_REVIEW_DIAGNOSIS') && (
          <CheckF path="tumorSpecimen.reviewDiagnosis" label="wizard.fields.reviewDiagnosis" cols={4} />
        )}
      </Section>
      <Section title="wizard.sections.blood">
        <SelectF
          path="normalSpecimen.specimenType"
          label="wizard.fields.normalSpecimenType"
          options={normalSpecimenTypeOptions(info)}
          required={required}
          onChangeExtra={(v) => v !== 'BLOOD' && set('normalSpecimen.collectionMode', null)}
        />
        {normal.specimenType === 'BLOOD' && (
          <SelectF
            path="normalSpecimen.collectionMode"
            label="wizard.fields.collectionMode"
            options={BLOOD_COLLECTION_MODES}
          />
        )}
        <DateF
          path="normalSpecimen.collectionDate"
          label="wizard.fields.collectionDate"
          min={blood.min}
          max={blood.max}
        />
        <CheckF path="normalSpecimen.isPreSurgicalOrPreBiopsySample" label="wizard.fields.preSurgical" />
      </Section>
      {!info.nextDx && !info.nextPersonalDx && (
        <Grid size={12}>
          <Alert severity="warning">
            <Typography variant="body2">
              {t('wizard.sections.testSelection')}: {t('wizard.rules.required')}
            </Typography>
          </Alert>
        </Grid>
      )}
    </>
  );
}
