import { Box, Paper, Tab, Tabs } from '@mui/material';
import { billingReviewBlockers, type BillingReviewStatus, type RequisitionForm } from '@onco/domain';
import { useNavigate } from 'react-router-dom';
import { todayIso } from '../list/logic';
import { useOrdersT } from '../list/useOrdersT';
import { BillingReviewControl } from '../../billing/BillingReviewControl';
import { FinancialAssistanceControl } from '../../billing/FinancialAssistanceControl';
import { OrderTestsTab } from '../../test-orders/OrderTestsTab';
import { OrderTimeline } from '../timeline/OrderTimeline';
import type { Requisition } from './requisition';
import { SamplesTab } from './samples/SamplesTab';
import { AttachmentsTab, BillingTab, PatientTab, ProviderTab } from './Sections';

export const SUMMARY_TABS = [
  'patient',
  'provider',
  'billing',
  'attachments',
  'samples',
  'tests',
  'timeline',
] as const;
export type SummaryTab = (typeof SUMMARY_TABS)[number];

/** The tab bar; a tab is a route (/order/{id}/summary/{tab}), replaced in the history. */
export function SummaryTabBar({ id, tab }: { id: string; tab: SummaryTab }) {
  const t = useOrdersT();
  const navigate = useNavigate();
  const tabLabel = (k: SummaryTab) => t(`orders.summary.tab.${k}`);
  return (
    <Paper variant="outlined" sx={{ borderRadius: 2, mb: 2 }}>
      <Tabs
        value={tab}
        onChange={(_, v: SummaryTab) =>
          navigate(`/order/${encodeURIComponent(id)}/summary/${v}`, { replace: true })
        }
        variant="scrollable"
        scrollButtons="auto"
      >
        {SUMMARY_TABS.map((k) => (
          <Tab key={k} value={k} label={tabLabel(k)} data-testid={`summary-tab-${k}`} />
        ))}
      </Tabs>
    </Paper>
  );
}

/** The open tab's content; the Billing tab has the billing review control above it. */
export function SummaryTabPanel(props: { r: Requisition; tab: SummaryTab; onChanged: () => void }) {
  const { r, tab } = props;
  return (
    <Box data-testid={`summary-panel-${tab}`}>
      {tab === 'patient' ? <PatientTab r={r} /> : null}
      {tab === 'provider' ? <ProviderTab r={r} /> : null}
      {tab === 'billing' ? (
        <>
          <BillingReviewControl
            key={`${r.id}-${r.billingReview?.status ?? ''}`}
            requisitionId={r.id}
            status={(r.billingReview?.status ?? null) as BillingReviewStatus | null}
            submitted={r.status === 'SUBMITTED' && !r.deleted}
            onChanged={props.onChanged}
            blockers={billingReviewBlockers(r as RequisitionForm, todayIso())}
          />
          {r.actions?.financialAssistance && r.status !== 'DRAFT' ? (
            <FinancialAssistanceControl
              key={`${r.id}-fa-${r.financialAssistance?.outcome ?? ''}`}
              requisitionId={r.id}
              value={r.financialAssistance ?? null}
              editable={!!r.actions.recordFinancialAssistance}
              onChanged={props.onChanged}
            />
          ) : null}
          <BillingTab r={r} />
        </>
      ) : null}
      {tab === 'attachments' ? <AttachmentsTab r={r} onChanged={props.onChanged} /> : null}
      {tab === 'samples' ? <SamplesTab r={r} /> : null}
      {tab === 'tests' ? <OrderTestsTab requisitionId={r.id} draft={r.status === 'DRAFT'} /> : null}
      {tab === 'timeline' ? <OrderTimeline requisitionId={r.id} /> : null}
    </Box>
  );
}
