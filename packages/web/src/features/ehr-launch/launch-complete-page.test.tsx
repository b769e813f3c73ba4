import { AuthLabels, EhrLaunchErrors, EhrLaunchPaths, EhrLaunchTexts, Labels } from '@rpm/contracts';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { returnToPath } from '../../lib/auth/return-to.ts';
import { makeUser, server, signInForTest, runPortalTestServer } from '../../lib/testing/portal-test-server.ts';
import { renderApp } from '../../lib/testing/render-app.tsx';

runPortalTestServer();
afterEach(() => sessionStorage.clear());

const LAUNCH = 'Zk3-abcdefghijklmnopqrstuvwxyz_0123456789AB';
const page = `${EhrLaunchPaths.complete}?launch=${LAUNCH}`;

describe('launch from the EHR', { timeout: 20_000 }, () => {
  it('sends a signed-out clinician to sign in, remembering this page to come back to', async () => {
    const { router } = renderApp(page);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('heading', { name: AuthLabels.signInTitle })).toBeInTheDocument();
    expect(returnToPath()).toBe(page);
  });

  it('asks once which patient the launch is, then replaces itself with that patient\'s page', async () => {
    signInForTest(makeUser());
    const bodies: unknown[] = [];
    server.use(
      http.post(EhrLaunchPaths.resolve, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ patient_id: 42 });
      }),
      // The patient page's own calls are not this test's business.
      http.get(/\/api\/(?!me$)/, () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
    );
    sessionStorage.setItem('rpm.returnTo', JSON.stringify({ path: page, at: Date.now() }));
    const { router } = renderApp(page);
    await waitFor(() => expect(router.state.location.pathname).toBe('/patients/42'));
    expect(bodies).toEqual([{ launch: LAUNCH }]);
    // Reached: the sign-in page will not bring anyone back here again.
    expect(returnToPath()).toBeNull();
  });

  it('shows the server\'s reason when the launch cannot be opened, with a way on', async () => {
    signInForTest(makeUser());
    server.use(http.post(EhrLaunchPaths.resolve, () => HttpResponse.json({ message: EhrLaunchErrors.noMatch }, { status: 404 })));
    renderApp(page);
    expect(await screen.findByText(EhrLaunchErrors.noMatch)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: EhrLaunchTexts.title })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: EhrLaunchTexts.back })).toBeInTheDocument();
  });

  it('says the launch has expired when the address carries none', async () => {
    signInForTest(makeUser());
    renderApp(EhrLaunchPaths.complete);
    expect(await screen.findByText(EhrLaunchErrors.expired)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: Labels.login })).toBeNull();
  });

  it('says the launch has expired when the server refuses the launch id as malformed (an edited address)', async () => {
    signInForTest(makeUser());
    server.use(
      http.post(EhrLaunchPaths.resolve, () =>
        HttpResponse.json({ message: 'Invalid request: body/launch must NOT have fewer than 16 characters' }, { status: 400 }),
      ),
    );
    renderApp(`${EhrLaunchPaths.complete}?launch=cut`);
    expect(await screen.findByText(EhrLaunchErrors.expired)).toBeInTheDocument();
  });
});
