import { useState, type ReactNode } from 'react';
import { Box, MenuItem, TextField } from '@mui/material';
import { OPEN_CLINICAL_REVIEW_STATUSES } from '@onco/domain';
import {
  billingAttentionTarget,
  billingReviewTarget,
  clinicalReviewTarget,
  TEST_STATUS_BOXES,
  testStatusLabel,
  testStatusTarget,
  type DateRange,
} from './logic';
import { grid, Panel, ScoreBox } from './Panel';
import type { GoTo } from './useDashboard';
import { useHomeLabel, useHomeT } from './useHomeT';

/** Test Status: a score box a status, each opening the tests it counted in the range. */
export function TestStatusPanel(props: { counts: Record<string, number>; range: DateRange; go: GoTo }) {
  const { counts, range, go } = props;
  const t = useHomeT();
  const label = useHomeLabel();
  return (
    <Panel title={t('home.testStatus')} testId="panel-test-status">
      <Box sx={grid(130)}>
        {TEST_STATUS_BOXES.map((s) => (
          <ScoreBox
            key={s}
            testId={`status-${s}`}
            label={s === 'REPORT_COMPLETE' ? t('home.completed') : testStatusLabel(s, label)}
            count={counts[s]}
            onClick={() => go(testStatusTarget(s, counts[s] ?? 0, range))}
          />
        ))}
      </Box>
    </Panel>
  );
}

/** Clinical or Billing Review: a score box a review status, each opening what it counted; then `children`. */
function ReviewPanel(props: {
  kind: 'clinical' | 'billing';
  counts: Record<string, number>;
  onOpen: (status: string) => void;
  children?: ReactNode;
  action?: ReactNode;
}) {
  const t = useHomeT();
  const label = useHomeLabel();
  return (
    <Panel title={t(`home.${props.kind}Review`)} testId={`panel-${props.kind}-review`} action={props.action}>
      <Box sx={grid(120)}>
        {Object.entries(props.counts).map(([s, n]) => (
          <ScoreBox
            key={s}
            testId={`${props.kind}-${s}`}
            label={label(s)}
            count={n}
            onClick={() => props.onOpen(s)}
          />
        ))}
        {props.children}
      </Box>
    </Panel>
  );
}

/** Clinical Review and Billing Review, side by side when the user may see both. */
export function ReviewPanels(props: {
  clinical: Record<string, number> | undefined;
  billing: Record<string, number> | undefined;
  billingAttention: number | undefined;
  go: GoTo;
}) {
  const { clinical, billing, billingAttention, go } = props;
  const t = useHomeT();
  const reviewFilter = useReviewFilter();
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: {
          xs: 'minmax(0, 1fr)',
          md: clinical && billing ? 'repeat(2, minmax(0, 1fr))' : 'minmax(0, 1fr)',
        },
      }}
    >
      {clinical ? (
        <ReviewPanel
          kind="clinical"
          counts={reviewFilter.show(clinical)}
          onOpen={(s) => go(clinicalReviewTarget(s), 'orders')}
          action={
            <TextField
              select
              size="small"
              variant="standard"
              sx={{ minWidth: 140 }}
              value={reviewFilter.value}
              onChange={(e) => reviewFilter.set(e.target.value as ReviewFilter)}
              slotProps={{
                htmlInput: { 'data-testid': 'review-filter', 'aria-label': t('home.reviewFilter') },
              }}
            >
              <MenuItem value="open" data-value="open">
                {t('home.reviewOpen')}
              </MenuItem>
              <MenuItem value="all" data-value="all">
                {t('home.reviewAll')}
              </MenuItem>
            </TextField>
          }
        />
      ) : null}
      {billing ? (
        <ReviewPanel kind="billing" counts={billing} onOpen={(s) => go(billingReviewTarget(s))}>
          {typeof billingAttention === 'number' ? (
            <ScoreBox
              testId="billing-needs-attention"
              label={t('home.billingAttention')}
              count={billingAttention}
              onClick={() => go(billingAttentionTarget())}
            />
          ) : null}
        </ReviewPanel>
      ) : null}
    </Box>
  );
}

type ReviewFilter = 'open' | 'all';
const REVIEW_FILTER_KEY = 'onco.home.reviewFilter';

/**
 * The Clinical Review panel's Review filter (spec 2 section 2.1 names it; ours: "Open reviews", the statuses
 * still to be worked, or "All reviews"), remembered in this browser. Open by default: a reviewer's worklist.
 */
function useReviewFilter() {
  const [value, setValue] = useState<ReviewFilter>(() =>
    localStorage.getItem(REVIEW_FILTER_KEY) === 'all' ? 'all' : 'open',
  );
  return {
    value,
    set(next: ReviewFilter) {
      localStorage.setItem(REVIEW_FILTER_KEY, next);
      setValue(next);
    },
    show(counts: Record<string, number>): Record<string, number> {
      if (value === 'all') return counts;
      return Object.fromEntries(
        Object.entries(counts).filter(([s]) =>
          (OPEN_CLINICAL_REVIEW_STATUSES as readonly string[]).includes(s),
        ),
      );
    },
  };
}
