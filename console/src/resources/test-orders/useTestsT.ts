import { useMessagesT } from '../../components';
import { testsEn } from './i18n';

/** react-admin's translate with the Tests screens' English texts as the default. */
export const useTestsT = () => useMessagesT(testsEn);
