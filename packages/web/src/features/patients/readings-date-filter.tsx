import { Box, Button, Stack, Typography } from '@mui/material';
import type { ChangeEvent } from 'react';
import { TZDate } from '@date-fns/tz';
import { PatientTexts } from '@rpm/contracts';
import { useSearchParamsUpdate } from '../../lib/search-params.ts';
import type { VitalsRange } from '../../api/vitals/get-vitals.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const FROM = 'readings_from';
const TO = 'readings_to';

/** Midnight starting `day` (YYYY-MM-DD), `plusDays` later, in `timeZone`, as an ISO timestamp. */
function dayStart(day: string, timeZone: string, plusDays = 0): string | undefined {
  const m = DAY.exec(day);
  if (!m) return undefined;
  // The instant itself, written in UTC as the other timestamps the portal sends.
  return new Date(
    new TZDate(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays, timeZone).getTime(),
  ).toISOString();
}

/**
 * The readings table's dates, kept in the address (a reload or Back keeps them): whole days in
 * the user's time zone, both included. `range` is what the server is asked for ([from, to + 1 day)),
 * empty while the dates are reversed.
 */
export function useReadingsDates(timeZone: string) {
  const [params, update] = useSearchParamsUpdate({ replace: true });
  const from = params.get(FROM) ?? '';
  const to = params.get(TO) ?? '';
  const reversed = from !== '' && to !== '' && from > to;
  const range: VitalsRange = reversed ? {} : { from: dayStart(from, timeZone), to: dayStart(to, timeZone, 1) };
  const set = (changes: { from?: string; to?: string }) =>
    update({
      ...('from' in changes ? { [FROM]: changes.from } : {}),
      ...('to' in changes ? { [TO]: changes.to } : {}),
    });
  return { from, to, reversed, range, set, active: from !== '' || to !== '' };
}

type Dates = ReturnType<typeof useReadingsDates>;

/** A labelled native date input: the browser's own picker, and no input library in the page's first load. */
function DateInput({
  label,
  value,
  invalid,
  onChange,
}: {
  label: string;
  value: string;
  invalid: boolean;
  onChange: (v: string) => void;
}) {
  return (
    <Box
      component="label"
      sx={{ display: 'inline-flex', flexDirection: 'column', typography: 'caption', color: 'text.secondary' }}
    >
      {label}
      <Box
        component="input"
        type="date"
        value={value}
        aria-invalid={invalid || undefined}
        onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
        sx={{
          font: 'inherit',
          typography: 'body2',
          color: 'text.primary',
          p: 1,
          border: 1,
          borderRadius: 1,
          borderColor: invalid ? 'error.main' : 'divider',
          bgcolor: 'background.paper',
        }}
      />
    </Box>
  );
}

/** From and To over the readings table; Clear shows every reading again. */
export function ReadingsDateFilter({ dates, onChange }: { dates: Dates; onChange: () => void }) {
  const change = (changes: { from?: string; to?: string }) => {
    dates.set(changes);
    onChange();
  };
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ flexWrap: 'wrap', alignItems: 'flex-end', mb: 1 }}
      role="group"
      aria-label={PatientTexts.readingsDateRange}
    >
      <DateInput
        label={PatientTexts.readingsFrom}
        value={dates.from}
        invalid={dates.reversed}
        onChange={(from) => change({ from })}
      />
      <DateInput
        label={PatientTexts.readingsTo}
        value={dates.to}
        invalid={dates.reversed}
        onChange={(to) => change({ to })}
      />
      {dates.active && (
        <Button size="small" onClick={() => change({ from: '', to: '' })}>
          {PatientTexts.clearDates}
        </Button>
      )}
      {dates.reversed && (
        <Typography role="alert" variant="body2" color="error" sx={{ width: '100%' }}>
          {PatientTexts.datesReversed}
        </Typography>
      )}
    </Stack>
  );
}
