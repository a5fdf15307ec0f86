import { useMessagesT } from '../../../components';
import { useMemo, useState } from 'react';
import { Box, FormControlLabel, Paper, Switch, Typography } from '@mui/material';
import AssignmentTurnedInOutlinedIcon from '@mui/icons-material/AssignmentTurnedInOutlined';
import BiotechOutlinedIcon from '@mui/icons-material/BiotechOutlined';
import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutline';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import PaymentsOutlinedIcon from '@mui/icons-material/PaymentsOutlined';
import ScienceOutlinedIcon from '@mui/icons-material/ScienceOutlined';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { DateText } from '../../../components';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { useEnumLabel } from '../list/useOrdersT';
import { COMMENTS_PATH } from '../summary/api';
import type { TimelineEntry } from './api';
import { useTimelineMethods } from './useTimelineMethods';
import { useFieldPathsText } from '../wizard/fieldLabel';
import { billingKey, changeKey, timelineEn } from './i18n';

interface Comment {
  id: string;
  messageBody: string;
  createdOn?: string | null;
  owner?: { firstName?: string | null; lastName?: string | null } | null;
}

type Line = {
  id: string;
  at: string;
  icon: React.ReactNode;
  text: string;
  by: string | null;
  testOrderId: string | null;
};

const usDay = (d: unknown) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(d ?? ''));
  return m ? `${m[2]}/${m[3]}/${m[1]}` : '';
};

/**
 * One time-ordered history of an order (beyond the spec, issue 12): the events of the requisition, its tests and
 * samples (GET /testOrderForms/{id}/timeline) with the comments of the order merged in, oldest first. On a test
 * detail, `testOrderId` offers "Only this test" (order-level entries stay).
 */
export function OrderTimeline({
  requisitionId,
  testOrderId,
}: {
  requisitionId: string;
  testOrderId?: string;
}) {
  const t = useMessagesT(timelineEn);
  const label = useEnumLabel();
  const fieldsText = useFieldPathsText();
  const dp = useDataProvider<ConsoleDataProvider>();
  const timelineApi = useTimelineMethods();
  const [onlyThis, setOnlyThis] = useState(false);
  const entries = useQuery({
    queryKey: ['timeline', requisitionId],
    queryFn: () => timelineApi.getOrderTimeline({ id: requisitionId }).then((r) => r.data),
    // entries arrive with their events (about a second after a change): look again while the timeline is open
    refetchInterval: 5_000,
  });
  const comments = useQuery({
    queryKey: ['timeline-comments', requisitionId],
    queryFn: () =>
      dp
        .call<{ content: Comment[] }>({
          path: COMMENTS_PATH,
          query: { filter: { testOrderFormId: requisitionId, isParent: true }, page: 0, perPage: 200 },
        })
        .then((r) => r.data.content)
        .catch(() => [] as Comment[]),
  });

  const lines = useMemo(() => {
    const text = (e: TimelineEntry): { icon: React.ReactNode; text: string } => {
      const d = e.data ?? {};
      const test = d.testId ?? '';
      switch (e.family) {
        case 'requisition-submitted':
          return {
            icon: <AssignmentTurnedInOutlinedIcon />,
            text: t('timeline.submitted', { trf: d.testRequisitionId ?? '' }),
          };
        case 'attachment':
          return e.kind === 'attachment-added'
            ? {
                icon: <DescriptionOutlinedIcon />,
                text: t('timeline.attachmentAdded', { name: d.name ?? '', type: label(d.type) }),
              }
            : { icon: <DescriptionOutlinedIcon />, text: t('timeline.trf', { name: d.name ?? '' }) };
        case 'test-status': {
          const to = label(d.status);
          if (e.kind === 'created')
            return {
              icon: <BiotechOutlinedIcon />,
              text: t('timeline.testCreated', { test, type: label(d.testType) }),
            };
          if (e.kind === 'report')
            return {
              icon: <BiotechOutlinedIcon />,
              text: t(d.report?.amended ? 'timeline.testReportAmended' : 'timeline.testReport', {
                test,
                version: d.report?.version ?? '',
                file: d.report?.fileName ?? '',
                to,
              }),
            };
          if (e.kind === 'due-date')
            return {
              icon: <BiotechOutlinedIcon />,
              text: d.dueOn
                ? t('timeline.dueSet', { test, date: usDay(d.dueOn) })
                : t('timeline.dueRemoved', { test }),
            };
          if (e.kind === 'lims-project')
            return {
              icon: <BiotechOutlinedIcon />,
              text: t('timeline.lims', { test, lims: d.limsProjectId ?? '' }),
            };
          if (e.kind === 'merged')
            return { icon: <BiotechOutlinedIcon />, text: t('timeline.testMerged', { test, to }) };
          return {
            icon: <BiotechOutlinedIcon />,
            text: t('timeline.testStatus', { test, from: label(d.previousStatus), to }),
          };
        }
        case 'sample':
          return {
            icon: <ScienceOutlinedIcon />,
            text: t('timeline.sample', {
              type: label(d.type),
              lims: d.limsId ?? '',
              change: t(`timeline.sampleChange.${e.kind}`),
              status: label(d.status),
            }),
          };
        case 'requisition-changed':
          return {
            icon: <AssignmentTurnedInOutlinedIcon />,
            text: String(e.kind)
              .split(',')
              .map((k) =>
                t(`timeline.changed.${changeKey(k)}`, {
                  from: label(d.previousClinicalReviewStatus),
                  to: label(d.clinicalReviewStatus),
                  fields: fieldsText(d.changedFields ?? []),
                  outcome: d.financialAssistanceOutcome ? label(d.financialAssistanceOutcome) : '—',
                }),
              )
              .join('; '),
          };
        case 'billing-case':
          return {
            icon: <PaymentsOutlinedIcon />,
            text: t(billingKey(e.kind, d), { from: label(d.previousStatus), to: label(d.caseStatus) }),
          };
        default:
          return { icon: <DescriptionOutlinedIcon />, text: e.kind };
      }
    };
    const out: Line[] = (entries.data ?? []).map((e) => ({
      id: e.id,
      at: e.at,
      ...text(e),
      // automated changes (workers, the billing system's answers) are the actor 'system'
      by: e.by?.name === 'system' ? t('timeline.system') : (e.by?.name ?? null),
      testOrderId: e.testOrderId,
    }));
    for (const c of comments.data ?? [])
      out.push({
        id: `comment:${c.id}`,
        at: c.createdOn ?? '',
        icon: <ChatBubbleOutlineIcon />,
        text: t('timeline.comment', {
          text: c.messageBody.length > 80 ? `${c.messageBody.slice(0, 80)}…` : c.messageBody,
        }),
        by: [c.owner?.firstName, c.owner?.lastName].filter(Boolean).join(' ') || null,
        testOrderId: null,
      });
    return out
      .filter((l) => !onlyThis || !testOrderId || l.testOrderId === null || l.testOrderId === testOrderId)
      .sort((a, b) => +new Date(a.at) - +new Date(b.at));
  }, [entries.data, comments.data, t, label, fieldsText, onlyThis, testOrderId]);

  return (
    <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }} data-testid="order-timeline">
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2" sx={{ fontWeight: 700, color: 'primary.dark', flex: 1 }}>
          {t('timeline.title')}
        </Typography>
        {testOrderId ? (
          <FormControlLabel
            control={
              <Switch size="small" checked={onlyThis} onChange={(e) => setOnlyThis(e.target.checked)} />
            }
            label={<Typography variant="body2">{t('timeline.onlyThisTest')}</Typography>}
          />
        ) : null}
      </Box>
      {entries.isPending ? (
        <Typography variant="body2" color="text.secondary">
          {t('timeline.loading')}
        </Typography>
      ) : lines.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('timeline.empty')}
        </Typography>
      ) : (
        <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {lines.map((l, i) => (
            <Box
              component="li"
              key={l.id}
              sx={{ display: 'flex', gap: 1.5, position: 'relative', pb: i === lines.length - 1 ? 0 : 1.5 }}
              data-testid="timeline-entry"
            >
              <Box
                sx={{
                  color: 'primary.main',
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'center',
                  '& svg': { fontSize: 20 },
                }}
              >
                {l.icon}
                {i < lines.length - 1 ? (
                  <Box sx={{ flex: 1, width: 2, bgcolor: 'divider', mt: 0.5 }} />
                ) : null}
              </Box>
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2">{l.text}</Typography>
                <Typography variant="caption" color="text.secondary">
                  <DateText value={l.at} withTime />
                  {l.by ? ` · ${t('timeline.by', { name: l.by })}` : ''}
                </Typography>
              </Box>
            </Box>
          ))}
        </Box>
      )}
    </Paper>
  );
}
