import { TZDate } from '@date-fns/tz';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Menu,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import {
  ALERT_RULES,
  ALERT_SEVERITIES,
  AlertTexts,
  WORKLIST_SORTS,
  type Alert,
  type AlertRule,
  type AlertSeverity,
  type WorklistRow,
  type WorklistSort,
} from '@rpm/contracts';
import { useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useAcknowledgeAlert } from '../../api/alerts/acknowledge-alert.ts';
import { useWorklist, type WorklistParams } from '../../api/alerts/get-worklist.ts';
import { errorMessage } from '../../api/errors.ts';
import { useProviders } from '../../api/organizations/get-providers.ts';
import { AlertStateMarks, alertReadingText, SeverityChip } from '../../components/alert-display.tsx';
import { LoadingState } from '../../components/loading-state.tsx';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useSearchParamsUpdate } from '../../lib/search-params.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { ResolveDialog } from './resolve-dialog.tsx';

const PAGE_SIZES = [10, 25, 50];
const DEFAULT_ROWS = 25;
const STATUS_FILTERS = ['active', 'open', 'acknowledged'] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];
const STATUS_LABEL: Record<StatusFilter, string> = {
  active: AlertTexts.statusActive,
  open: AlertTexts.statuses.open,
  acknowledged: AlertTexts.statuses.acknowledged,
};
const SORT_LABEL: Record<WorklistSort, string> = {
  priority: AlertTexts.colPriority,
  patient: AlertTexts.colPatient,
  waiting: AlertTexts.colWaiting,
  last_reading: AlertTexts.colLastReading,
};

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | undefined =>
  (list as readonly string[]).includes(value ?? '') ? (value as T) : undefined;

/**
 * The worklist's filters, sort and page live in the address: a reload keeps them and Back undoes
 * the last change (each change is a history entry, unlike typing in a search box).
 */
function useWorklistQuery() {
  const [params, update] = useSearchParamsUpdate({ replace: false });
  const rowsParam = Number(params.get('rows'));
  const limit = PAGE_SIZES.includes(rowsParam) ? rowsParam : DEFAULT_ROWS;
  const page = Math.max(0, Math.floor(Number(params.get('page')) || 0));
  const provider = Number(params.get('provider'));
  const query: WorklistParams = {
    status: oneOf(STATUS_FILTERS, params.get('status')) ?? 'active',
    severity: oneOf<AlertSeverity>(ALERT_SEVERITIES, params.get('severity')),
    rule: oneOf<AlertRule>(ALERT_RULES, params.get('rule')),
    provider_id: Number.isInteger(provider) && provider > 0 ? provider : undefined,
    sort: oneOf(WORKLIST_SORTS, params.get('sort')) ?? 'priority',
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    limit,
    offset: page * limit,
  };
  return { query, page, limit, update };
}

export type SnoozeChoice = 'none' | '1h' | '4h' | 'tomorrow';
const SNOOZE_CHOICES: { value: SnoozeChoice; label: string }[] = [
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

/** The worklist: one row per patient with active alerts, most urgent first (the server's order). */
export default function AlertsPage() {
  const { user } = useAuth();
  return <AlertsWorklist organizationId={user?.organization_id ?? null} />;
}

/** The page's content; the provider filter lists the providers of `organizationId`. */
export function AlertsWorklist({ organizationId }: { organizationId: number | null }) {
  const { timezone } = useTimezone();
  const theme = useTheme();
  // Below md the columns do not fit a phone: each patient becomes a stacked card.
  const narrow = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const { query, page, limit, update } = useWorklistQuery();
  const providers = useProviders(organizationId);
  const worklist = useWorklist(query);
  const acknowledge = useAcknowledgeAlert();
  const { enqueueSnackbar } = useSnackbar();
  const [resolving, setResolving] = useState<Alert | null>(null);
  const [snoozeMenu, setSnoozeMenu] = useState<{ anchor: HTMLElement; alert: Alert } | null>(null);
  const rowElements = useRef(new Map<number, HTMLElement>());
  const items = worklist.data?.items ?? [];

  /**
   * After an action the keyboard goes on to the next patient (or the previous one when this was
   * the last), so working down the list needs no pointer. The rows stay until the refetch, so the
   * neighbour is found in the list as it was when the action started.
   */
  const focusAfter = (patientId: number) => {
    const index = items.findIndex((r) => r.patient_id === patientId);
    const target = items[index + 1] ?? items[index - 1] ?? items[index];
    if (!target) return;
    // After the dialog or menu has closed and given focus back, not before.
    setTimeout(() => rowElements.current.get(target.patient_id)?.focus(), 0);
  };

  const handleAcknowledge = (a: Alert, choice: SnoozeChoice) => {
    setSnoozeMenu(null);
    const until = snoozeUntil(choice, timezone);
    acknowledge.mutate(
      { id: a.id, body: until ? { snooze_until: until } : {} },
      {
        onSuccess: () => {
          enqueueSnackbar(AlertTexts.acknowledged, { variant: 'success' });
          focusAfter(a.patient_id);
        },
        onError: (err) => enqueueSnackbar(errorMessage(err, AlertTexts.acknowledge), { variant: 'error' }),
      },
    );
  };

  const sortHeader = (sort: WorklistSort, align?: 'right') => (
    <TableCell align={align} sortDirection={query.sort === sort ? query.order : false}>
      <TableSortLabel
        active={query.sort === sort}
        direction={query.sort === sort ? query.order : 'asc'}
        onClick={() => update({ sort, order: query.sort === sort && query.order === 'asc' ? 'desc' : 'asc' })}
      >
        {SORT_LABEL[sort]}
      </TableSortLabel>
    </TableCell>
  );

  const alertLines = (row: WorklistRow) => (
    <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {row.alerts.map((a) => (
        <Box component="li" key={a.id} data-alert-id={a.id}>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
          >
            <Box sx={{ minWidth: 0 }}>
              <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <SeverityChip severity={a.severity} />
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {AlertTexts.rules[a.rule]}
                </Typography>
                {a.count > 1 && <Chip size="small" label={`× ${a.count}`} />}
              </Stack>
              <Typography variant="body2">{alertReadingText(a)}</Typography>
              <AlertStateMarks alert={a} timezone={timezone} />
            </Box>
            <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
              {a.status === 'open' && (
                <Button
                  size="small"
                  aria-haspopup="menu"
                  aria-label={AlertTexts.acknowledgeMenuLabel(AlertTexts.rules[a.rule])}
                  disabled={acknowledge.isPending}
                  onClick={(e) => setSnoozeMenu({ anchor: e.currentTarget, alert: a })}
                >
                  {AlertTexts.acknowledge}
                </Button>
              )}
              <Button
                size="small"
                variant="contained"
                aria-label={AlertTexts.resolveButtonLabel(AlertTexts.rules[a.rule])}
                onClick={() => setResolving(a)}
              >
                {AlertTexts.resolve}
              </Button>
            </Stack>
          </Stack>
        </Box>
      ))}
    </Stack>
  );

  const patientLink = (row: WorklistRow) => (
    <Box component={RouterLink} to={`/patients/${row.patient_id}`} sx={{ color: 'primary.main', fontWeight: 600 }}>
      {row.patient_name}
    </Box>
  );
  const rowRef = (id: number) => (el: HTMLElement | null) => {
    if (el) rowElements.current.set(id, el);
    else rowElements.current.delete(id);
  };
  const rowLabel = (row: WorklistRow) => AlertTexts.worklistRowLabel(row.patient_name, row.alerts.length);

  let content: ReactNode;
  if (worklist.isPending) content = <LoadingState />;
  else if (worklist.isError)
    content = (
      <Typography color="error" role="alert">
        {errorMessage(worklist.error, AlertTexts.loadFailed)}
      </Typography>
    );
  else if (items.length === 0) content = <Typography sx={{ py: 3 }}>{AlertTexts.empty}</Typography>;
  else if (narrow)
    content = (
      <Stack spacing={1.5} component="ul" aria-label={AlertTexts.pageTitle} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {items.map((row) => (
          <Card
            key={row.patient_id}
            component="li"
            variant="outlined"
            tabIndex={-1}
            ref={rowRef(row.patient_id)}
            aria-label={rowLabel(row)}
            data-patient-id={row.patient_id}
          >
            <CardContent>
              <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
                {patientLink(row)}
                {row.escalated && <Chip size="small" color="error" label={AlertTexts.escalated} />}
              </Stack>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {AlertTexts.colWaiting}: {formatTimestamp(row.waiting_since, timezone)} · {AlertTexts.colLastReading}:{' '}
                {formatTimestamp(row.last_reading_at, timezone)}
              </Typography>
              {alertLines(row)}
            </CardContent>
          </Card>
        ))}
      </Stack>
    );
  else
    content = (
      <TableContainer>
        <Table size="small" aria-label={AlertTexts.pageTitle}>
          <TableHead>
            <TableRow>
              {sortHeader('priority')}
              {sortHeader('patient')}
              <TableCell>{AlertTexts.colAlerts}</TableCell>
              {sortHeader('waiting')}
              {sortHeader('last_reading')}
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((row) => (
              <TableRow
                key={row.patient_id}
                ref={rowRef(row.patient_id)}
                tabIndex={-1}
                aria-label={rowLabel(row)}
                data-patient-id={row.patient_id}
                sx={{
                  verticalAlign: 'top',
                  '&:focus': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
                }}
              >
                <TableCell>
                  <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
                    <SeverityChip severity={row.severity} />
                    {row.escalated && <Chip size="small" color="error" label={AlertTexts.escalated} />}
                  </Stack>
                </TableCell>
                <TableCell>{patientLink(row)}</TableCell>
                <TableCell sx={{ minWidth: 320 }}>{alertLines(row)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(row.waiting_since, timezone)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(row.last_reading_at, timezone)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    );

  return (
    <>
      <Typography variant="h4" component="h1" gutterBottom>
        {AlertTexts.pageTitle}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }}>
        <FilterSelect
          label={AlertTexts.filterStatus}
          value={query.status ?? 'active'}
          onChange={(v) => update({ status: v === 'active' ? undefined : v })}
          options={STATUS_FILTERS.map((s) => ({ value: s, label: STATUS_LABEL[s] }))}
        />
        <FilterSelect
          label={AlertTexts.filterSeverity}
          value={query.severity ?? ''}
          onChange={(v) => update({ severity: v })}
          options={ALERT_SEVERITIES.map((s) => ({ value: s, label: AlertTexts.severities[s] }))}
          any
        />
        <FilterSelect
          label={AlertTexts.filterRule}
          value={query.rule ?? ''}
          onChange={(v) => update({ rule: v })}
          options={ALERT_RULES.map((r) => ({ value: r, label: AlertTexts.rules[r] }))}
          any
        />
        <FilterSelect
          label={AlertTexts.filterProvider}
          value={query.provider_id ? String(query.provider_id) : ''}
          onChange={(v) => update({ provider: v })}
          options={(providers.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          any
        />
      </Stack>
      {content}
      {(worklist.data?.total ?? 0) > 0 && (
        <TablePagination
          component="div"
          count={worklist.data?.total ?? 0}
          page={page}
          rowsPerPage={limit}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_e, p) => update({ page: p })}
          onRowsPerPageChange={(e) =>
            update({ rows: Number(e.target.value) === DEFAULT_ROWS ? undefined : e.target.value })
          }
        />
      )}
      {/* Acknowledging asks one thing more: until when (if at all) the alert may wait. */}
      <Menu
        anchorEl={snoozeMenu?.anchor ?? null}
        open={snoozeMenu !== null}
        onClose={() => setSnoozeMenu(null)}
        slotProps={{ list: { 'aria-label': AlertTexts.snooze } }}
      >
        {SNOOZE_CHOICES.map((c) => (
          <MenuItem key={c.value} onClick={() => snoozeMenu && handleAcknowledge(snoozeMenu.alert, c.value)}>
            {c.label}
          </MenuItem>
        ))}
      </Menu>
      {resolving && (
        <ResolveDialog
          alert={resolving}
          onClose={() => setResolving(null)}
          onResolved={() => focusAfter(resolving.patient_id)}
        />
      )}
    </>
  );
}

function FilterSelect({
  label,
  value,
  onChange,
  options,
  any = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  any?: boolean;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      sx={{ minWidth: 180 }}
    >
      {any && <MenuItem value="">{AlertTexts.any}</MenuItem>}
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
