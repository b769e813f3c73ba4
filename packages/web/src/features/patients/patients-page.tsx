import {
  Alert,
  Box,
  Button,
  InputAdornment,
  LinearProgress,
  MenuItem,
  Paper,
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
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import {
  ENROLLMENT_STATUSES,
  Labels,
  NO_ENROLLMENT_STATUS,
  PATIENT_LIST_PAGE_SIZE,
  PATIENT_LIST_PAGE_SIZE_OPTIONS,
  PATIENT_SEARCH_MAX_LENGTH,
  PATIENT_SORTS,
  PatientTexts,
  type PatientListQuery,
  type PatientSort,
} from '@rpm/contracts';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useSearchParamsUpdate } from '../../lib/search-params.ts';
import { paths } from '../../config/paths.ts';
import { WRAPPING_PAGER_SX } from '../../components/pager-sx.ts';
import { usePagerSelect } from '../../components/pager-select.ts';
import { LoadingState, PageHeader } from '../../components/table-states.tsx';
import { errorMessage } from '../../api/errors.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { useTimezone } from '../../lib/timezone.ts';
import { usePatients } from '../../api/patients/get-patients.ts';
import { listTimestamp, statusText } from './format.ts';

const SEARCH_DELAY_MS = 300;
const STATUS_FILTERS: readonly string[] = [...ENROLLMENT_STATUSES, NO_ENROLLMENT_STATUS];

/** The list's state lives in the address, so Back from a patient returns to the same page. */
function useListQuery() {
  const [params, update] = useSearchParamsUpdate({ replace: true });
  const sortParam = params.get('sort');
  const statusParam = params.get('status');
  const rows = Number(params.get('rows'));
  const limit = (PATIENT_LIST_PAGE_SIZE_OPTIONS as readonly number[]).includes(rows) ? rows : PATIENT_LIST_PAGE_SIZE;
  const page = Math.max(0, Math.floor(Number(params.get('page')) || 0));
  const query: PatientListQuery = {
    q: params.get('q') ?? '',
    sort: (PATIENT_SORTS as readonly string[]).includes(sortParam ?? '') ? (sortParam as PatientSort) : 'name',
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    status: STATUS_FILTERS.includes(statusParam ?? '') ? (statusParam as PatientListQuery['status']) : undefined,
    limit,
    offset: page * limit,
  };
  return { query, page, limit, update };
}

/** /patients: the patients the user may see (the server decides which), searched and paged by the server. */
export default function PatientsPage() {
  const { user } = useAuth();
  return <PatientList isAdmin={user?.role === 'admin'} />;
}

/** The list itself; `isAdmin` adds the organization column (the server decides the rows). */
export function PatientList({ isAdmin }: { isAdmin: boolean }) {
  const pagerSelect = usePagerSelect();
  const { query, page, limit, update } = useListQuery();
  const [search, setSearch] = useState(query.q ?? '');
  const patients = usePatients(query);
  const { timezone } = useTimezone();

  // The request follows the typing once it pauses, not every key.
  useEffect(() => {
    if (search.trim() === (query.q ?? '').trim()) return;
    const timer = setTimeout(() => update({ q: search.trim() }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, query.q, update]);

  const sortBy = (sort: PatientSort) => () =>
    update({ sort, order: query.sort === sort && query.order === 'asc' ? 'desc' : 'asc' });
  // The month's figures have long heads: they wrap onto two lines so the list fits a laptop.
  const sortHead = (sort: PatientSort, label: string, align: 'left' | 'right' = 'left') => (
    <TableCell
      align={align}
      sortDirection={query.sort === sort ? query.order : false}
      sx={align === 'right' ? { minWidth: 80, maxWidth: 110 } : { whiteSpace: 'nowrap' }}
    >
      <TableSortLabel
        active={query.sort === sort}
        direction={query.sort === sort ? query.order : 'asc'}
        onClick={sortBy(sort)}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );
  const columnCount = isAdmin ? 10 : 9;

  return (
    <Box>
      <PageHeader title={PatientTexts.listTitle} action={{ label: Labels.addPatient, to: paths.patientAdd }} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          label={PatientTexts.search}
          helperText={PatientTexts.searchHelp}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          type="search"
          sx={{ flex: 1, maxWidth: { sm: 420 } }}
          slotProps={{
            htmlInput: { maxLength: PATIENT_SEARCH_MAX_LENGTH },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon aria-hidden />
                </InputAdornment>
              ),
            },
          }}
        />
        <TextField
          select
          label={PatientTexts.statusFilter}
          value={query.status ?? ''}
          onChange={(e) => update({ status: e.target.value })}
          sx={{ minWidth: 200 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">{PatientTexts.allStatuses}</MenuItem>
          {ENROLLMENT_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
          <MenuItem value={NO_ENROLLMENT_STATUS}>{PatientTexts.noStatus}</MenuItem>
        </TextField>
      </Stack>
      {patients.isPending ? (
        <LoadingState />
      ) : patients.isError ? (
        <Alert severity="error">{errorMessage(patients.error, PatientTexts.failedToLoadPatients)}</Alert>
      ) : (
        <Paper>
          <Box sx={{ height: 4 }}>{patients.isFetching && <LinearProgress aria-label="Loading" />}</Box>
          {/* Focusable and named: on narrow screens it scrolls, and keyboards must reach that. */}
          <TableContainer tabIndex={0} role="region" aria-label={PatientTexts.listTitle}>
            <Table size="small" aria-label={PatientTexts.listTitle}>
              <TableHead>
                <TableRow>
                  <TableCell>{PatientTexts.firstName}</TableCell>
                  {sortHead('name', PatientTexts.lastName)}
                  {sortHead('date_of_birth', PatientTexts.dateOfBirth)}
                  {sortHead('status', PatientTexts.status)}
                  {sortHead('last_reading', PatientTexts.lastReading)}
                  {sortHead('open_alerts', PatientTexts.openAlerts, 'right')}
                  {sortHead('minutes_this_month', PatientTexts.minutesThisMonth, 'right')}
                  {sortHead('device_days_this_month', PatientTexts.deviceDaysThisMonth, 'right')}
                  {isAdmin && <TableCell>{PatientTexts.organization}</TableCell>}
                  <TableCell align="right">{PatientTexts.actions}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {patients.data.items.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={columnCount}>
                      <Typography color="text.secondary">
                        {query.q || query.status ? PatientTexts.noMatches : PatientTexts.noPatients}
                      </Typography>
                    </TableCell>
                  </TableRow>
                ) : (
                  patients.data.items.map((p) => (
                    <TableRow key={p.id} hover>
                      <TableCell>{p.first_name}</TableCell>
                      <TableCell>{p.last_name}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{p.date_of_birth ?? Labels.notAvailable}</TableCell>
                      <TableCell>{statusText(p.enrollment_status)}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {p.last_reading_at ? listTimestamp(p.last_reading_at, timezone) : PatientTexts.noReadingYet}
                      </TableCell>
                      <TableCell align="right">{p.open_alerts}</TableCell>
                      <TableCell align="right">{p.minutes_this_month}</TableCell>
                      <TableCell align="right">{p.device_days_this_month}</TableCell>
                      {isAdmin && <TableCell>{p.organization_name}</TableCell>}
                      <TableCell align="right">
                        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                          <Button
                            size="small"
                            component={RouterLink}
                            to={paths.patient(p.id)}
                            aria-label={`${Labels.view} ${p.first_name} ${p.last_name}`}
                          >
                            {Labels.view}
                          </Button>
                          <Button
                            size="small"
                            component={RouterLink}
                            to={paths.patientEdit(p.id)}
                            aria-label={`${Labels.edit} ${p.first_name} ${p.last_name}`}
                          >
                            {Labels.edit}
                          </Button>
                        </Stack>
                      </TableCell>
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={patients.data.total}
            page={patients.data.total === 0 ? 0 : Math.min(page, Math.ceil(patients.data.total / limit) - 1)}
            rowsPerPage={limit}
            rowsPerPageOptions={[...PATIENT_LIST_PAGE_SIZE_OPTIONS]}
            onPageChange={(_e, p) => update({ page: p })}
            onRowsPerPageChange={(e) => update({ rows: Number(e.target.value) })}
            sx={WRAPPING_PAGER_SX}
            slotProps={{ select: pagerSelect }}
          />
        </Paper>
      )}
    </Box>
  );
}
