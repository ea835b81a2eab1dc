import { createContext } from '@lit/context';
import type { ApiClient } from './api/client.ts';
import type { ReportsSource } from './api/reports.ts';
import type { Me, SessionApi } from './api/session.ts';
import type { Localizer } from './i18n/localizer.ts';

/** What the shell provides to every screen. */
export const localizerContext = createContext<Localizer>(Symbol('dash-localizer'));
export const apiContext = createContext<ApiClient>(Symbol('dash-api'));
export const sessionContext = createContext<SessionApi>(Symbol('dash-session'));
export const meContext = createContext<Me | undefined>(Symbol('dash-me'));
export const reportsContext = createContext<ReportsSource>(Symbol('dash-reports'));
