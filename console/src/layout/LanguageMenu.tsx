import { useState } from 'react';
import { Box, Button, Menu, MenuItem } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';
import { useLocaleState, useTranslate } from 'react-admin';
import { LOCALES, type Locale } from '../i18n';
import { STORAGE_KEYS } from '../providers/storage';

/** English / 简体中文; the choice is kept in local storage (spec 3 section 9.1). */
export function LanguageMenu({ color = 'inherit' }: { color?: 'inherit' | 'primary' }) {
  const [locale, setLocale] = useLocaleState();
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = LOCALES.find((l) => l.locale === locale) ?? LOCALES[0];
  const choose = (l: Locale) => {
    localStorage.setItem(STORAGE_KEYS.locale, l);
    setLocale(l);
    setAnchor(null);
  };
  return (
    <>
      <Button
        color={color}
        size="small"
        startIcon={<TranslateIcon fontSize="small" />}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-label={translate('app.header.language')}
        data-testid="language-menu"
        sx={{ fontWeight: 500 }}
      >
        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
          {current.name}
        </Box>
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {LOCALES.map((l) => (
          <MenuItem
            key={l.locale}
            selected={l.locale === locale}
            onClick={() => choose(l.locale)}
            data-locale={l.locale}
          >
            {l.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
