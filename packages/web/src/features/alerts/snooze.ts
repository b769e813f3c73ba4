import { TZDate } from '@date-fns/tz';
import { AlertTexts } from '@rpm/contracts';
export type SnoozeChoice = 'none' | '1h' | '4h' | 'tomorrow';
export const SNOOZE_CHOICES: { value: SnoozeChoice; label: string }[] = [
  { value: 'none', label: AlertTexts.snoozeNone },
  { value: '1h', label: AlertTexts.snooze1h },
  { value: '4h', label: AlertTexts.snooze4h },
  { value: 'tomorrow', label: AlertTexts.snoozeTomorrow },
];
const HOUR_MS = 3_600_000;
/** The morning hour "tomorrow" means, in the user's time zone (the clinic's working day starts). */
const TOMORROW_HOUR = 8;

/** When a snooze ends (ISO), or undefined for none; "tomorrow" is 8:00 in the user's time zone. */
export function snoozeUntil(choice: SnoozeChoice, timezone: string, now = Date.now()): string | undefined {
  if (choice === '1h') return new Date(now + HOUR_MS).toISOString();
  if (choice === '4h') return new Date(now + 4 * HOUR_MS).toISOString();
  if (choice === 'tomorrow') {
    const d = new TZDate(now, timezone);
    d.setDate(d.getDate() + 1);
    d.setHours(TOMORROW_HOUR, 0, 0, 0);
    return new Date(d.getTime()).toISOString();
  }
  return undefined;
}
