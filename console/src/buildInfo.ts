/** What the About dialog shows, from the build itself (vite.config.ts). */
export const BUILD = {
  version: __BUILD_VERSION__,
  build: __BUILD_ID__,
  mode: import.meta.env.MODE,
  updatedOn: __BUILD_TIME__,
} as const;

/** Addresses ending with this domain belong to the company's own staff (forgot password: contact IT). */
export const COMPANY_EMAIL_DOMAIN = __COMPANY_EMAIL_DOMAIN__;

/** Client-services contact details shown in the Contact dialog, on the terms page and on forgot password. */
export const CLIENT_SERVICES = {
  email: 'clientservices@oncotrf.example.com',
  phone: '(800) 555-0134',
  address: '1200 Harbor Bay Parkway, Suite 300, Alameda, CA 94502',
  privacyUrl: 'https://www.oncotrf.example.com/privacy-policy',
  trfDocument: '/downloads/TRF-102-210-C.pdf',
} as const;
