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
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import {
  ALERT_RULES,
  ALERT_SEVERITIES,
  AlertTexts,
  type Alert,
  type WorklistRow,
  type WorklistSort,
} from '@rpm/contracts';
import { useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useAcknowledgeAlert } from '../../api/alerts/acknowledge-alert.ts';
import { useWorklist } from '../../api/alerts/get-worklist.ts';
import { errorMessage } from '../../api/errors.ts';
import { useProviders } from '../../api/organizations/get-providers.ts';
import { AlertStateMarks, alertReadingText, SeverityChip } from '../../components/alert-display.tsx';
import { LoadingState } from '../../components/loading-state.tsx';
import { SortFields } from '../../components/sort-fields.tsx';
import { WRAPPING_PAGER_SX } from '../../components/pager-sx.ts';
import { usePagerSelect } from '../../components/pager-select.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { FilterSelect } from './filter-select.tsx';
import { ResolveDialog } from './resolve-dialog.tsx';
import { SNOOZE_CHOICES, snoozeUntil, type SnoozeChoice } from './snooze.ts';
import {
  DEFAULT_ROWS,
  PAGE_SIZES,
  SORT_LABEL,
  SORT_OPTIONS,
  STATUS_FILTERS,
  STATUS_LABEL,
  useWorklistQuery,
} from './worklist-query.ts';

// Still offered by the page, whose tests check when a snooze ends.
export { snoozeUntil, type SnoozeChoice } from './snooze.ts';

/** The worklist: one row per patient with active alerts, most urgent first (the server's order). */
export default function AlertsPage() {
  const { user } = useAuth();
  return <AlertsWorklist organizationId={user?.organization_id ?? null} />;
}

/** The page's content; the provider filter lists the providers of `organizationId`. */
export function AlertsWorklist({ organizationId }: { organizationId: number | null }) {
  const pagerSelect = usePagerSelect();
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
        {narrow && (
          <SortFields
            options={SORT_OPTIONS}
            sort={query.sort ?? null}
            order={query.order ?? 'asc'}
            // As a heading's first click: ascending.
            onSort={(sort) => sort && update({ sort, order: 'asc' })}
            onOrder={(order) => update({ order })}
          />
        )}
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
          sx={WRAPPING_PAGER_SX}
          slotProps={{ select: pagerSelect }}
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
