import {
  BillingTexts,
  CARE_TIMER_RESUME_MS,
  CARE_TIMER_STORAGE_PREFIX,
  CareTimerTexts,
  ContactTypeLabels,
  Labels,
  PatientTexts,
  TrackingActivityLabels,
  TrackingErrors,
  type Organization,
  type TimerStart,
} from '@rpm/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../lib/testing/render-page.tsx';
import { setupTestServer } from '../../../lib/testing/test-server.ts';
import { removeStoredByPrefix } from '../../../lib/session/stored-keys.ts';
import CareTimerPanel from './care-timer.tsx';

/** A fixed day (the entry's date comes from it), so nothing depends on today. */
const T0 = new Date('2026-11-03T14:00:00Z').getTime();
const PATIENT = 4;
const USER = 9;

let timerStart: TimerStart = 'open';
let answers: Array<() => Response> = [];
const sent: Array<Record<string, unknown>> = [];
const server = setupTestServer(
  http.get('/api/organizations', () =>
    HttpResponse.json<Organization[]>([{ id: 1, name: 'North Clinic', timer_start: timerStart }]),
  ),
  http.post(`/api/patients/${PATIENT}/sessions`, async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push(body);
    const answer = answers.shift();
    if (answer) return answer();
    return HttpResponse.json(
      {
        id: sent.length,
        notes: null,
        activity: null,
        contact_type: null,
        measured_minutes: null,
        adjustment_reason: null,
        interactive: false,
        ...body,
      },
      { status: 201 },
    );
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  sent.length = 0;
  answers = [];
  timerStart = 'open';
  // Only the timer's clock is faked: the dialog's code loading and the requests run as usual.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
  localStorage.clear();
});
afterAll(() => server.close());

const advance = (ms: number) => act(() => void vi.advanceTimersByTime(ms));
const elapsed = () => screen.getByRole('timer').textContent;
const renderTimer = (isProvider = true) =>
  renderPage(<CareTimerPanel userId={USER} patientId={PATIENT} organizationId={1} isProvider={isProvider} />);
const startUser = () => userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
const counting = () =>
  waitFor(() => expect(screen.getByTestId('care-timer-status').textContent).toBe(CareTimerTexts.running));

/** Stop, and the tracking dialog it opens with its minutes field. */
async function stopInto(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: CareTimerTexts.stop }));
  const dialog = await screen.findByRole('dialog', { name: CareTimerTexts.logTitle });
  return { dialog, minutes: within(dialog).getByLabelText(PatientTexts.minutes) as HTMLInputElement };
}

describe('care timer panel', { timeout: 20_000 }, () => {
  it('starts for a provider on opening, shows mm:ss and announces only changes', async () => {
    renderTimer();
    await counting();
    expect(screen.getByRole('status').textContent).toBe(CareTimerTexts.announceStarted);
    advance(65_000);
    expect(elapsed()).toBe('01:05');
    // The seconds are not announced.
    expect(screen.getByRole('status').textContent).toBe(CareTimerTexts.announceStarted);
    fireEvent.click(screen.getByRole('button', { name: CareTimerTexts.pause }));
    expect(screen.getByRole('status').textContent).toBe(CareTimerTexts.announcePaused);
    expect(screen.getByRole('button', { name: CareTimerTexts.start })).toBeTruthy();
  });

  it("waits for a click when the organization says 'click', and for anyone but a provider", async () => {
    timerStart = 'click';
    const { unmount } = renderTimer();
    await waitFor(() => expect(screen.getByRole('button', { name: CareTimerTexts.start })).toBeTruthy());
    advance(30_000);
    expect(elapsed()).toBe('00:00');
    unmount();
    timerStart = 'open';
    renderTimer(false);
    advance(30_000);
    expect(elapsed()).toBe('00:00');
    fireEvent.click(screen.getByRole('button', { name: CareTimerTexts.start }));
    advance(3000);
    expect(elapsed()).toBe('00:03');
  });

  it('Stop opens the dialog with the measured minutes; more needs a reason; a failed save loses nothing', async () => {
    const user = startUser();
    renderTimer();
    await counting();
    advance(60_000);
    fireEvent.mouseMove(document);
    advance(90_000);
    expect(elapsed()).toBe('02:30');

    const { dialog, minutes } = await stopInto(user);
    // 2 min 30 s rounds to 3.
    expect(minutes.value).toBe('3');
    expect(within(dialog).getByText(CareTimerTexts.measuredHelp(3))).toBeTruthy();
    expect((within(dialog).getByLabelText(PatientTexts.date) as HTMLInputElement).value).toBe('2026-11-03');

    // More than measured: the reason is asked for, and Save says so rather than sending.
    await user.clear(minutes);
    await user.type(minutes, '5');
    const reason = await within(dialog).findByLabelText(CareTimerTexts.adjustmentReason, { exact: false });
    await user.click(within(dialog).getByRole('button', { name: Labels.save }));
    expect(await within(dialog).findByText(TrackingErrors.adjustmentReasonRequired)).toBeTruthy();
    expect(sent).toEqual([]);

    await user.type(reason, 'Call notes written after the timer stopped');
    await user.selectOptions(within(dialog).getByLabelText(CareTimerTexts.activity), TrackingActivityLabels.phone_call);
    await user.click(within(dialog).getByLabelText(BillingTexts.interactiveCheckbox));
    await user.selectOptions(within(dialog).getByLabelText(CareTimerTexts.contactType), ContactTypeLabels.phone);

    answers.push(() => HttpResponse.json({ message: 'Server says no' }, { status: 400 }));
    await user.click(within(dialog).getByRole('button', { name: Labels.save }));
    expect(await screen.findByText('Server says no')).toBeTruthy();
    // Everything typed is still there.
    expect(minutes.value).toBe('5');
    expect((reason as HTMLTextAreaElement).value).toBe('Call notes written after the timer stopped');
    expect((within(dialog).getByLabelText(CareTimerTexts.activity) as HTMLSelectElement).value).toBe('phone_call');
    expect((within(dialog).getByLabelText(CareTimerTexts.contactType) as HTMLSelectElement).value).toBe('phone');

    await user.click(within(dialog).getByRole('button', { name: Labels.save }));
    await screen.findByText(PatientTexts.trackingAdded);
    expect(sent[1]).toEqual({
      date: '2026-11-03',
      duration_minutes: 5,
      notes: null,
      interactive: true,
      activity: 'phone_call',
      contact_type: 'phone',
      measured_minutes: 3,
      adjustment_reason: 'Call notes written after the timer stopped',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(elapsed()).toBe('00:00');
    expect(screen.getByTestId('care-timer-status').textContent).toBe(CareTimerTexts.notStarted);
  });

  it('lowering the measured minutes needs no reason', async () => {
    const user = startUser();
    renderTimer();
    await counting();
    advance(100_000);
    const { dialog, minutes } = await stopInto(user);
    await user.clear(minutes);
    await user.type(minutes, '1');
    expect(within(dialog).queryByLabelText(CareTimerTexts.adjustmentReason, { exact: false })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: Labels.save }));
    await screen.findByText(PatientTexts.trackingAdded);
    expect(sent[0]).toMatchObject({ duration_minutes: 1, measured_minutes: 2, activity: null, contact_type: null });
    expect(sent[0]).not.toHaveProperty('adjustment_reason');
  });

  it('offers the time of a page closed while counting on the next visit: Log fills the dialog', async () => {
    const user = startUser();
    const first = renderTimer();
    await counting();
    advance(110_000);
    act(() => void window.dispatchEvent(new Event('pagehide')));
    first.unmount();
    // The next morning.
    vi.setSystemTime(T0 + CARE_TIMER_RESUME_MS + 20 * 60 * 60_000);

    timerStart = 'click';
    renderTimer();
    const text = CareTimerTexts.draft(2, '2026-11-03');
    expect(await screen.findByText(text)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: CareTimerTexts.draftLog }));
    const dialog = await screen.findByRole('dialog', { name: CareTimerTexts.logTitle });
    expect((within(dialog).getByLabelText(PatientTexts.minutes) as HTMLInputElement).value).toBe('2');
    expect((within(dialog).getByLabelText(PatientTexts.date) as HTMLInputElement).value).toBe('2026-11-03');
    await user.click(within(dialog).getByRole('button', { name: Labels.save }));
    await screen.findByText(PatientTexts.trackingAdded);
    expect(sent[0]).toMatchObject({ date: '2026-11-03', duration_minutes: 2, measured_minutes: 2 });
    await waitFor(() => expect(screen.queryByText(text)).toBeNull());
    expect(Object.keys(localStorage).filter((k) => k.startsWith(CARE_TIMER_STORAGE_PREFIX))).toEqual([]);
  });

  it('Discard drops the draft; sign-out removes every care timer key', async () => {
    const user = startUser();
    const first = renderTimer();
    await counting();
    advance(40_000);
    first.unmount();
    vi.setSystemTime(T0 + 2 * 60 * 60_000);
    timerStart = 'click';
    const second = renderTimer();
    await user.click(await screen.findByRole('button', { name: CareTimerTexts.draftDiscard }));
    expect(screen.queryByText(CareTimerTexts.draft(1, '2026-11-03'))).toBeNull();
    second.unmount();

    localStorage.setItem(`${CARE_TIMER_STORAGE_PREFIX}${USER}.${PATIENT}.draft`, JSON.stringify({ ms: 60_000, at: T0 }));
    localStorage.setItem('rpm.other-setting', 'kept');
    // What sign-out calls (lib/auth/auth-context.tsx, logout).
    removeStoredByPrefix(CARE_TIMER_STORAGE_PREFIX);
    expect(Object.keys(localStorage)).toEqual(['rpm.other-setting']);
  });
});
