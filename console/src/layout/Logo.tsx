import { Box, Typography } from '@mui/material';

/** The product mark: a helix-like glyph and the company name. */
export function Logo({ inverse = false, size = 32 }: { inverse?: boolean; size?: number }) {
  const ink = inverse ? '#ffffff' : '#1e7d4f';
  const accent = inverse ? '#9fd8b8' : '#1f5fa8';
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25 }} aria-label="OncoTRF">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
        <circle cx="16" cy="16" r="15" fill="none" stroke={ink} strokeWidth="2" />
        <path d="M10 7c6 4 6 14 12 18" stroke={ink} strokeWidth="2.4" fill="none" strokeLinecap="round" />
        <path d="M22 7c-6 4-6 14-12 18" stroke={accent} strokeWidth="2.4" fill="none" strokeLinecap="round" />
        <path
          d="M12 11h8M11.5 16h9M12 21h8"
          stroke={ink}
          strokeWidth="1.4"
          strokeLinecap="round"
          opacity="0.7"
        />
      </svg>
      <Typography
        component="span"
        sx={{ fontWeight: 700, fontSize: size * 0.62, letterSpacing: 0.3, color: ink, lineHeight: 1 }}
      >
        Onco<span style={{ color: accent }}>TRF</span>
      </Typography>
    </Box>
  );
}
