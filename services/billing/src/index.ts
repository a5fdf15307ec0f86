export { createBillingModule, type BillingModule } from './module';
export * from './models';
export { billingCasesResource } from './routes/billing-cases';
export { billingScope } from './use-cases';
export { billingDashboard } from './dashboard';
export type { DiagnosisCodeCatalog } from './submission/rules';
export type { BillingModuleOptions } from './module';
export { buildClaim, claimKey, type Claim } from './submission/claim';
export { createGatewayClient, type GatewayClient, type GatewayReply } from './submission/gateway-client';
export {
  startGatewayStandin,
  type GatewayStandin,
  type GatewayStandinOptions,
} from './submission/gateway-standin';
