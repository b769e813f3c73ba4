import { SIGN_IN_SHELL_ID } from './app/sign-in-shell.ts';
import { restoreSession } from './lib/auth/session-restore.ts';

// The session check starts first, before the app's own code has loaded: the two then run side by
// side (the app shell preloads the opened page's code meanwhile).
void restoreSession();
void import('./app/mount.tsx');

// A page's first Intl.DateTimeFormat loads the browser's date and time-zone data: some 15 ms, and
// 60 to 170 ms on a phone's CPU. Paid here, in a task of its own while the session check and the
// app's code are on the network, it is no longer paid inside the first render of a page that shows
// a time (on a patient's record it was most of the longest task after the first paint). The
// sign-in page shows no time, so a signed-out visit does not pay it at all.
if (!document.getElementById(SIGN_IN_SHELL_ID)) setTimeout(() => Intl.DateTimeFormat().resolvedOptions(), 0);
