import type {
  BarcodesReply,
  SampleForm,
  SampleManifestListRow,
  SamplesReply as SamplesRequisition,
  TestType,
} from '@onco/domain';
import { sessionHttpClient, type HttpClient } from '../../../../components/listApi';
import { fetchBlob } from '../../../../providers/http';
import { API } from '@onco/domain';

/** The orders area, where the lab serves samples (spec 2 section 7 "Samples"). */

/** A sample, and the samples reply of GET testOrderForms/{id}/samples: the wire contract in @onco/domain. */
export type {
  BarcodeRow,
  SampleManifestListRow,
  SampleRow,
  SamplesReply as SamplesRequisition,
} from '@onco/domain';

export interface DomainPreference {
  id: string;
  workOrderNumber: string;
  product: string | null;
  sequencingProduct: string | null;
}

export interface LimsProject {
  testTypes: TestType[];
  limsProjectId: string;
  testRequisitionId: string | null;
  diagnosis: string | null;
  testOrderFormId: string;
}

/** A sample in a create/update body: the form's fields, plus id and version on update. */
export type SampleBody = Omit<SampleForm, 'type'> & { id?: string; version?: number };
export type SampleLists = { tumors?: SampleBody[]; normals?: SampleBody[]; plasmas?: SampleBody[] };

/** A requisition offered as a copy source (GET /portal/api/v1/testOrderForms, spec dialect). */
export interface CopySource {
  id: string;
  testRequisitionId: string | null;
  createdOn?: string | null;
}

/** The sample calls as named data-provider methods (design rule 10); components reach them via useSampleMethods. */
export function sampleMethods(http: HttpClient = sessionHttpClient()) {
  const send = async <T>(method: string, path: string, body?: unknown): Promise<{ data: T }> => {
    const { json } = await http(`${API.oms}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { data: json as T };
  };
  return {
    /** GET testOrderForms/{id}/samples → {tumors, normals, plasmas, …} */
    getSamples: (p: { requisitionId: string }) =>
      send<SamplesRequisition>('GET', `/testOrderForms/${encodeURIComponent(p.requisitionId)}/samples`),
    /** POST createSampleSource: the requisition id with its new samples by kind */
    createSamples: (p: { id: string } & SampleLists) =>
      send<SamplesRequisition>('POST', '/createSampleSource', p),
    /** PUT updateSampleSource: the requisition id with the changed samples (id, version) */
    updateSamples: (p: { id: string } & SampleLists) =>
      send<SamplesRequisition>('PUT', '/updateSampleSource', p),
    /** POST copySampleSource: the selected samples of the source into the target requisition */
    copySamples: (p: {
      sourceMergeTrfId: string;
      toTestOrderForm: {
        id: string;
        parentTestOrderForm?: { id?: string | null } | null;
        tumors: { id: string }[];
        normals: { id: string }[];
        plasmas: { id: string }[];
      };
    }) => send<SamplesRequisition>('POST', '/copySampleSource', p),
    /** GET domainPreferences?filter=…: the first match (or null) */
    getDomainPreference: async (p: { filter: Record<string, string> }) => {
      const qs = new URLSearchParams({ filter: JSON.stringify(p.filter), perPage: '1', page: '0' });
      const { data } = await send<{ content: DomainPreference[] }>('GET', `/domainPreferences?${qs}`);
      return { data: data.content[0] ?? null };
    },
    /** POST getLimsInfo with the patient: the patient's LIMS projects */
    getLimsInfo: (p: { patient: { id: string } }) => send<LimsProject[]>('POST', '/getLimsInfo', p.patient),
    /** the submitted requisitions of the patient and account a copy may come from (spec 2 section 7) */
    getCopySources: async (p: {
      patientId: string;
      accountId?: string | null;
      q?: string;
      excludeId: string;
    }) => {
      const filter: Record<string, string> = {
        status: 'in(SUBMITTED)',
        patientId: `eq(${p.patientId})`,
        id: `!in(${p.excludeId})`,
      };
      if (p.accountId) filter.accountId = `eq(${p.accountId})`;
      if (p.q && p.q.trim().length > 2) filter.q = p.q.trim();
      const qs = new URLSearchParams({ filter: JSON.stringify(filter), perPage: '20', page: '0' });
      const { json } = await http(`${API.portal}/testOrderForms?${qs}`);
      return { data: ((json as { content?: CopySource[] }).content ?? []) as CopySource[] };
    },
    /**
     * GET sampleManifests (spec 2 section 7 "Samples": filtered by archived false, patientId, testOrderFormId):
     * the manifests that added or changed samples of the requisition, newest upload first
     */
    getSampleManifests: async (p: { requisitionId: string; patientId?: string | null }) => {
      const filter: Record<string, string> = {
        archived: 'eq(false)',
        testOrderFormId: `eq(${p.requisitionId})`,
      };
      if (p.patientId) filter.patientId = `eq(${p.patientId})`;
      const qs = new URLSearchParams({
        filter: JSON.stringify(filter),
        sort: 'uploadedOn,DESC',
        size: '50',
        page: '0',
      });
      const { json } = await http(`${API.portal}/sampleManifests?${qs}`);
      return {
        data: ((json as { content?: SampleManifestListRow[] }).content ?? []) as SampleManifestListRow[],
      };
    },
    /** GET barcodes?requestor&count&prefix: new container barcodes (spec 3 section 7.4) */
    issueBarcodes: (p: { requestor: string; count: number; prefix: string }) => {
      const qs = new URLSearchParams({ requestor: p.requestor, count: String(p.count), prefix: p.prefix });
      return send<BarcodesReply>('GET', `/barcodes?${qs}`);
    },
    /** POST barcodes/print: the codes' labels as a PDF (`reprint` for labels printed before) */
    printBarcodes: async (p: { barcodes: string[]; reprint?: boolean }): Promise<{ data: Blob }> => {
      const file = await fetchBlob(`${API.oms}/barcodes/print`, { method: 'POST', body: p });
      return { data: file!.blob };
    },
  };
}
export type SampleMethods = ReturnType<typeof sampleMethods>;
