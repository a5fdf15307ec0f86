import { useCustomMethods } from '../../../components/useCustomMethods';
import { timelineMethods } from './api';

const fallback = timelineMethods();

/** The order timeline's named methods, from the app's data provider when it has them, else the session client's. */
export const useTimelineMethods = () => useCustomMethods(fallback);
