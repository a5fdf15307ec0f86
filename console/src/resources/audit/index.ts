export { AuditPage } from './AuditPage';
export { AccessHistoryTab } from './AccessHistoryTab';
export { auditEn, auditZh } from './i18n';
