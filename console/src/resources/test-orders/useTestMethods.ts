import { useCustomMethods } from '../../components/useCustomMethods';
import { testMethods } from './api';

const fallback = testMethods();

/** The Tests screen's named methods, from the app's data provider when it has them, else the session client's. */
export const useTestMethods = () => useCustomMethods(fallback);
