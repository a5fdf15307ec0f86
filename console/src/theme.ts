import { deepmerge } from '@mui/utils';
import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** The console's look (spec 3 section 9.1): primary green, secondary blue, calm surfaces. */
export const BRAND = {
  green: '#1e7d4f',
  greenDark: '#135c39',
  greenLight: '#e8f3ed',
  blue: '#1f5fa8',
  ink: '#1d2a33',
  muted: '#5d6b75',
  surface: '#f4f6f7',
  border: '#dfe5e8',
} as const;

export const theme: RaThemeOptions = deepmerge(defaultTheme, {
  palette: {
    mode: 'light',
    primary: { main: BRAND.green, dark: BRAND.greenDark, contrastText: '#ffffff' },
    secondary: { main: BRAND.blue, contrastText: '#ffffff' },
    background: { default: BRAND.surface, paper: '#ffffff' },
    text: { primary: BRAND.ink, secondary: BRAND.muted },
    divider: BRAND.border,
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily:
      '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans SC", "PingFang SC", "Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif',
    h1: { fontSize: '1.75rem', fontWeight: 600 },
    h2: { fontSize: '1.5rem', fontWeight: 600 },
    h3: { fontSize: '1.3rem', fontWeight: 600 },
    h4: { fontSize: '1.15rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiPaper: { styleOverrides: { rounded: { borderRadius: 10 } } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    MuiDialogTitle: { styleOverrides: { root: { fontWeight: 600 } } },
    MuiTextField: { defaultProps: { variant: 'outlined', size: 'small', fullWidth: true } },
  },
} as RaThemeOptions) as RaThemeOptions;
