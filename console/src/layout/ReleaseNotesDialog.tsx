import { useEffect, useState } from 'react';
import { Box, CircularProgress, Divider, Typography } from '@mui/material';
import { useDataProvider, useTranslate } from 'react-admin';
import { FormDialog } from '../components/FormDialog';
import type { ConsoleDataProvider, ReleaseNote } from '../providers/dataProvider';
import { formatDate } from './format';

/** Release Notes: the release-notes API's nested features, items and sub-items, newest release first. */
export function ReleaseNotesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [notes, setNotes] = useState<ReleaseNote[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setNotes(null);
    setError(null);
    dataProvider
      .getReleaseNotes()
      .then(({ data }) => setNotes(data))
      .catch((e) => setError(e?.message ?? translate('app.error.generic')));
  }, [open, dataProvider, translate]);

  return (
    <FormDialog
      open={open}
      title={translate('app.releaseNotes.title')}
      onClose={onClose}
      dividers
      dialogProps={{ scroll: 'paper' }}
      closeLabel={translate('ra.action.close')}
    >
      {error ? (
        <Typography color="error">{error}</Typography>
      ) : !notes ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress size={28} />
        </Box>
      ) : notes.length === 0 ? (
        <Typography color="text.secondary">{translate('app.releaseNotes.empty')}</Typography>
      ) : (
        notes.map((n, i) => (
          <Box key={n.id} sx={{ mb: 2 }} data-testid="release-note">
            {i > 0 && <Divider sx={{ mb: 2 }} />}
            <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1.5, flexWrap: 'wrap' }}>
              <Typography variant="h4">
                {translate('app.releaseNotes.version', {
                  version: `${n.majorRevision}.${n.minorRevision}.${n.patchRevision}`,
                })}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {n.name}
                {n.updatedOn
                  ? ` · ${translate('app.releaseNotes.updatedOn', { date: formatDate(n.updatedOn) })}`
                  : ''}
              </Typography>
            </Box>
            {n.featureNoteVOs.map((f, fi) => (
              <Box key={fi} sx={{ mt: 1.25 }}>
                <Typography variant="subtitle2" color="primary">
                  {f.title}
                </Typography>
                <Box component="ul" sx={{ my: 0.5, pl: 3 }}>
                  {f.featureNoteItemVOs.map((item, ii) => (
                    <li key={ii}>
                      <Typography variant="body2">{item.title}</Typography>
                      {item.subFeatureNoteItemVOs.length > 0 && (
                        <Box component="ul" sx={{ my: 0.25, pl: 2.5 }}>
                          {item.subFeatureNoteItemVOs.map((s, si) => (
                            <li key={si}>
                              <Typography variant="body2" color="text.secondary">
                                {s.title}
                              </Typography>
                            </li>
                          ))}
                        </Box>
                      )}
                    </li>
                  ))}
                </Box>
              </Box>
            ))}
          </Box>
        ))
      )}
    </FormDialog>
  );
}
