import { restoreSession } from './lib/auth/session-restore.ts';

// The session check starts first, before the app's own code has loaded: the two then run side by
// side (the app shell preloads the opened page's code meanwhile).
void restoreSession();
void import('./app/mount.tsx');
