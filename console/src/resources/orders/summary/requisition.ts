import type { RequisitionRow } from '../list/logic';

/** The requisition as GET /testOrderForms/{id} returns it (the fields the summary shows). */
export type Requisition = RequisitionRow & {
  actions?: {
    print: boolean;
    copy: boolean;
    edit: boolean;
    delete: boolean;
    subsequentOrder: boolean;
    financialAssistance?: boolean;
    recordFinancialAssistance?: boolean;
  };
  financialAssistance?: {
    outcome: string | null;
    decidedOn?: string | null;
    decidedBy?: { id?: string | null; name?: string | null } | null;
  } | null;
  patient?: RequisitionRow['patient'] & Record<string, any>;
  physician?: (RequisitionRow['physician'] & Record<string, any>) | null;
  hospitalLocation?: (RequisitionRow['hospitalLocation'] & Record<string, any>) | null;
  account?: (RequisitionRow['account'] & Record<string, any>) | null;
  pathologist?: Record<string, any> | null;
  pathologistLocation?: Record<string, any> | null;
  additionalPhysician?: Record<string, any> | null;
  additionalPhysicianLocation?: Record<string, any> | null;
  orderInformation?: {
    nextDx?: boolean | null;
    nextPersonalDx?: boolean | null;
    orderType?: string | null;
  } | null;
  tumorSpecimen?: Record<string, any> | null;
  normalSpecimen?: Record<string, any> | null;
  billings?: Array<Record<string, any>>;
  attachments?: Array<{ id: string; name?: string | null; type?: string | null; createdOn?: string | null }>;
  approvals?: Array<{
    approvedBy?: { id?: string | null; name?: string | null } | null;
    createdOn?: string | null;
  }>;
  testOrders?: Array<{
    id: string;
    testOrderId?: string | null;
    testType: string;
    orderType?: string | null;
    status: string;
    dueOn?: string | null;
  }>;
};
