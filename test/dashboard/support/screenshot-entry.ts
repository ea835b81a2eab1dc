import '../../../dashboard/api/zod-config.ts';
import '../../../dashboard/components/app.ts';
import { fakeSession, reportSummary } from './fixtures.ts';
import { OWNER } from './operations-fixtures.ts';

/**
 * The dashboard as the screenshots script shows it: the real shell and screens, with the session and reports
 * stand-ins of the tests (the backend's are wired in at merge). `?signed-out` shows the sign-in screens.
 */
const signedOut = new URLSearchParams(location.search).has('signed-out');
const app = document.createElement('dash-app');
// The owner: every permission, so the navigation shows every screen.
app.session = fakeSession(signedOut ? null : OWNER);
app.reports = { summary: async (range) => reportSummary(range) };
document.body.style.margin = '0';
document.body.append(app);
