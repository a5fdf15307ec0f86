import { useCustomMethods } from '../../components/useCustomMethods';
import { billingMethods } from './api';

const fallback = billingMethods();

/** The Billing screen's named methods, from the app's data provider when it has them, else the session client's. */
export const useBillingMethods = () => useCustomMethods(fallback);
