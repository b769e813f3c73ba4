// Budgets for the JavaScript a first visit to a route loads, compressed as the server sends it
// (brotli). The file lists come from the build's manifest: the entry's static imports plus the
// route's lazily loaded page and its static imports; lazily loaded parts inside a page (the
// vitals chart) are not counted. Run after `npm run build`: `npm run size -w packages/web`.
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('./dist/.vite/manifest.json', import.meta.url), 'utf8'));

function initialFiles(...entries) {
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`size budget: ${key} is not in the build manifest`);
    if (files.has(`dist/${chunk.file}`)) return;
    files.add(`dist/${chunk.file}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  entries.forEach(visit);
  return [...files];
}

// Loaded lazily, but with every signed-in page.
const SIGNED_IN_CHROME = ['src/app/sidebar.tsx', 'src/app/account-menu.tsx'];

// /login and /patients/{id} are held to the product's first-load aims (180 kB and 220 kB), and
// /patients to a little above what it needs today. What keeps them there: the sign-in page's
// fields avoid TextField (whose select mode pulls in the menu and popover code), the patient
// page's add dialogs and their form library load when opened, toasts (notistack) and the
// sidebar's tooltips load after the first render, and the Session Ended dialog once signed in.
export default [
  {
    name: '/login',
    path: initialFiles('index.html', 'src/features/auth/login-page.tsx'),
    limit: '180 kB',
  },
  {
    name: '/patients/{id} (before the chart)',
    path: initialFiles('index.html', ...SIGNED_IN_CHROME, 'src/features/patients/patient-detail-page.tsx'),
    // 220 kB is the aim. The classifiers and thresholds that mark every reading (one classifier for
    // table, chart and alerts) and the programs brought it to about 224 kB (1 kB of room above it); the first-load work
    // (bringing it back under 220) is its own issue. Opening on what needs attention (the alerts'
    // actions, the readings' date filter, the evidence fields) and the care timer added 4.6 kB
    // (measured against the previous commit's build, chunk by chunk); this month's progress, the
    // summary links, the notes, tracking time and outreach sections load in chunks of their own.
    limit: '229 kB',
  },
  {
    name: '/patients',
    path: initialFiles('index.html', ...SIGNED_IN_CHROME, 'src/features/patients/patients-page.tsx'),
    // The triage columns (last reading, open alerts, minutes and days of the month) added 1 kB;
    // their times are written with Intl, not the date library. The shared chunks the care month's
    // pages reshuffled added about 0.6 kB more. Returning to the page that sent the user to sign in
    // (the launch from the EHR, in the signed-in shell's guard) added 0.3 kB.
    limit: '218.5 kB',
  },
];
