/**
 * The wizard's calls, through the app's data provider (its bearer token and 401 handling): requisition load,
 * create, save, sign, submit, delete; attachment upload; the reference pickers.
 */
import { useDataProvider } from 'react-admin';
import { useMemo } from 'react';
import type { RequisitionForm } from '@onco/domain';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { toSaveBody, toSubmitBody, type LoadedRequisition } from './model';

export interface Page<T> {
  content: T[];
  totalElements: number;
}

export function wizardApi(dp: ConsoleDataProvider) {
  const call = async <T>(params: Parameters<ConsoleDataProvider['call']>[0]) =>
    (await dp.call<T>(params)).data;
  return {
    load: (id: string) => call<LoadedRequisition>({ path: `testOrderForms/${encodeURIComponent(id)}` }),
    create: (form: RequisitionForm) =>
      call<LoadedRequisition>({ path: 'testOrderForms', method: 'POST', body: toSaveBody(form) }),
    save: (id: string, form: RequisitionForm) =>
      call<LoadedRequisition>({
        path: `testOrderForms/${encodeURIComponent(id)}`,
        method: 'PUT',
        body: toSaveBody(form),
      }),
    sign: (id: string, password: string) =>
      call<LoadedRequisition>({
        path: `testOrderForms/${encodeURIComponent(id)}/sign`,
        method: 'POST',
        body: { password },
      }),
    submit: (id: string, form: RequisitionForm) =>
      call<LoadedRequisition>({
        path: 'testOrderForms/submit',
        method: 'POST',
        query: { createPdf: 'true' },
        body: toSubmitBody(form, id),
      }),
    /** a GET with plain query parameters */
    getWith: <T>(path: string, query: Record<string, unknown>) => call<T>({ path, query }),
    /** one JSON document (a reference node) */
    get: <T>(path: string) => call<T>({ path }),
    /** a reference list in the spec's dialect: filter JSON, zero-based page, size */
    list: <T>(path: string, filter: Record<string, unknown>, size = 20) =>
      call<Page<T>>({ path, query: { filter, page: 0, size } }),
    upload: (form: FormData, onProgress: (p: number) => void) =>
      dp.upload<{ id: string; name?: string; type?: string; size?: number; contentType?: string }>({
        path: 'attachments/upload',
        form,
        onProgress,
      }),
    /** delete the draft (a soft delete; spec 2 section 5: a draft may always be deleted) */
    remove: (id: string) => call({ path: `testOrderForms/${encodeURIComponent(id)}`, method: 'DELETE' }),
    removeAttachment: (id: string) =>
      call({ path: `attachments/${encodeURIComponent(id)}`, method: 'PUT', body: { deleted: true } }),
  };
}

export type WizardApi = ReturnType<typeof wizardApi>;

export function useWizardApi(): WizardApi {
  const dp = useDataProvider<ConsoleDataProvider>();
  return useMemo(() => wizardApi(dp), [dp]);
}
