export { createBillingModule, type BillingModule } from './module';
export * from './models';
export { billingCasesResource, billingScope } from './routes/billing-cases';
export { billingDashboard } from './dashboard';
export type { DiagnosisCodeCatalog } from './submission/rules';
export type { BillingModuleOptions } from './module';
