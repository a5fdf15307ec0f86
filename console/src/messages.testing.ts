import { buildMessages } from './i18n';
import { SCREEN_MESSAGES } from './screens';

/** Every text of the console by language, as the app builds it (for unit tests of the screens' texts). */
export const messages = buildMessages(SCREEN_MESSAGES);
