/// <reference types="vite/client" />

/** Build information baked in by vite.config.ts (shown in the About dialog). */
declare const __BUILD_VERSION__: string;
declare const __BUILD_TIME__: string;
declare const __BUILD_ID__: string;
declare const __COMPANY_EMAIL_DOMAIN__: string;
