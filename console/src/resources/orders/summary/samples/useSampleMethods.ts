import { useCustomMethods } from '../../../../components/useCustomMethods';
import { sampleMethods } from './api';

const fallback = sampleMethods();

/** The Samples tab's named methods, from the app's data provider when it has them, else the session client's. */
export const useSampleMethods = () => useCustomMethods(fallback);
