import type { MessageBundle } from './i18n';
import { homeEn, homeZh } from './pages/home/i18n';
import { ordersEn, ordersZh } from './resources/orders/list/i18n';
import { wizardEn, wizardZh } from './resources/orders/wizard/i18n';
import { reportsEn, reportsZh } from './resources/test-orders/reportsI18n';
import { testsEn, testsZh } from './resources/test-orders/i18n';
import { samplesEn, samplesZh } from './resources/orders/summary/samples/i18n';
import { timelineEn, timelineZh } from './resources/orders/timeline/i18n';
import { mergeEn, mergeZh } from './resources/orders/merge/i18n';
import { billingEn, billingZh } from './resources/billing/i18n';
import { patientsEn, patientsZh } from './resources/patients/i18n';
import { boxEn, boxZh } from './resources/box/i18n';
import { kitsEn, kitsZh } from './resources/kits/i18n';
import { messagesEn, messagesZh } from './resources/messages/i18n';
import { auditEn, auditZh } from './resources/audit/i18n';

/**
 * What the screens hand to the console's lower layers: their texts (merged by i18n/index.ts in this order). The
 * screens register here, at the top beside App.tsx, so no lower layer (i18n, providers, layout) imports a screen.
 */
export const SCREEN_MESSAGES: readonly MessageBundle[] = [
  { en: homeEn, zh: homeZh },
  { en: ordersEn, zh: ordersZh },
  { en: wizardEn, zh: wizardZh },
  { en: testsEn, zh: testsZh },
  { en: timelineEn, zh: timelineZh },
  { en: samplesEn, zh: samplesZh },
  { en: mergeEn, zh: mergeZh },
  { en: reportsEn, zh: reportsZh },
  { en: billingEn, zh: billingZh },
  { en: patientsEn, zh: patientsZh },
  { en: boxEn, zh: boxZh },
  { en: kitsEn, zh: kitsZh },
  { en: messagesEn, zh: messagesZh },
  { en: auditEn, zh: auditZh },
];
