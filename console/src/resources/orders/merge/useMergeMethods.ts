import { useCustomMethods } from '../../../components/useCustomMethods';
import { mergeMethods } from './api';

const fallback = mergeMethods();

/** Merge TRF's named methods, from the app's data provider when it has them, else the session client's. */
export const useMergeMethods = () => useCustomMethods(fallback);
