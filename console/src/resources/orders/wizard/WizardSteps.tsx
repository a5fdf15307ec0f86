import { Box, ButtonBase, Typography } from '@mui/material';
import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import { WIZARD_STEPS, canJumpTo, type StepKey, type StepState } from '@onco/domain';
import { useWizardT } from './useWizardT';

/** The nine step headers: state icon, label, click to jump unless inactive. */
export function WizardSteps({
  current,
  states,
  onJump,
}: {
  current: StepKey;
  states: Record<StepKey, StepState>;
  onJump: (step: StepKey) => void;
}) {
  const t = useWizardT();
  return (
    <Box
      component="nav"
      aria-label="steps"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 0.5,
        mb: 2,
        borderBottom: 1,
        borderColor: 'divider',
        pb: 1,
      }}
    >
      {WIZARD_STEPS.map((s, i) => {
        const state = states[s.key];
        const active = s.key === current;
        const clickable = !active && canJumpTo(states, s.key);
        const Icon =
          state === 'complete' ? CheckCircle : state === 'incomplete' ? ErrorOutline : RadioButtonUnchecked;
        const color =
          state === 'complete' ? 'success.main' : state === 'incomplete' ? 'error.main' : 'text.disabled';
        return (
          <ButtonBase
            key={s.key}
            data-step={s.key}
            data-state={state}
            aria-current={active ? 'step' : undefined}
            disabled={!clickable}
            title={t(`wizard.state.${state}`)}
            onClick={() => clickable && onJump(s.key)}
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 0.75,
              px: 1.25,
              py: 0.75,
              borderRadius: 1,
              bgcolor: active ? 'action.selected' : 'transparent',
              borderBottom: 2,
              borderColor: active ? 'primary.main' : 'transparent',
              opacity: state === 'inactive' && !active ? 0.7 : 1,
            }}
          >
            <Icon sx={{ fontSize: 18, color: active && state === 'inactive' ? 'primary.main' : color }} />
            <Typography variant="body2" sx={{ fontWeight: active ? 700 : 500 }}>
              {i + 1}. {t(`wizard.steps.${s.key}`)}
            </Typography>
          </ButtonBase>
        );
      })}
    </Box>
  );
}
