import {
  Alert,
  Box,
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
} from '@mui/material';
import {
  AUDIT_PAGE_SIZE,
  AUDIT_PAGE_SIZE_OPTIONS,
  AdminTexts,
  AuditLogColumns,
  Toasts,
  type AuditLog,
  type AuditLogsResponse,
} from '@rpm/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { LoadingState, PageHeader } from '../../components/table-states.tsx';
import { apiGet } from '../../lib/api-client.ts';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';

/** Details, user agent and request id: long values shown on one line, cut with an ellipsis. */
const LONG_COLUMNS = new Set([6, 10, 11]);

const text = (v: string | number | null) => (v === null ? '' : String(v));

function cells(log: AuditLog, timezone: string): string[] {
  return [
    formatTimestamp(log.timestamp, timezone),
    text(log.user_id),
    text(log.ip_address),
    log.action,
    text(log.resource_type),
    text(log.resource_id),
    log.details ? JSON.stringify(log.details) : '',
    text(log.target_user_id),
    log.outcome,
    text(log.reason),
    text(log.user_agent),
    text(log.request_id),
  ];
}

/** /audit-logs: the audit trail, newest first, paged by the server (spec section 9). */
export default function AuditLogsPage() {
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState<number>(AUDIT_PAGE_SIZE);
  const { enqueueSnackbar } = useSnackbar();
  const { timezone } = useTimezone();
  const logs = useQuery({
    queryKey: ['audit-logs', rowsPerPage, page],
    queryFn: () => apiGet<AuditLogsResponse>(`/api/audit-logs?limit=${rowsPerPage}&offset=${page * rowsPerPage}`),
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    if (logs.isError) enqueueSnackbar(Toasts.failedToLoadLogs, { variant: 'error' });
  }, [logs.isError, enqueueSnackbar]);

  return (
    <Box>
      <PageHeader title={AdminTexts.auditLogsTitle} />
      {logs.isPending ? (
        <LoadingState />
      ) : logs.isError && !logs.data ? (
        <Alert severity="error">{Toasts.failedToLoadLogs}</Alert>
      ) : (
        <Paper>
          {logs.isFetching && <LinearProgress aria-label="Loading" />}
          <TableContainer sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={AdminTexts.auditLogsTitle} sx={{ minWidth: 1400 }}>
              <TableHead>
                <TableRow>
                  {AuditLogColumns.map((c) => (
                    <TableCell key={c} sx={{ whiteSpace: 'nowrap' }}>
                      {c}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {logs.data.logs.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={AuditLogColumns.length}>{AdminTexts.noLogs}</TableCell>
                  </TableRow>
                ) : (
                  logs.data.logs.map((log) => (
                    <TableRow key={log.id} hover>
                      {cells(log, timezone).map((value, i) => (
                        <TableCell
                          key={AuditLogColumns[i]}
                          // Long free text (details, user agent) is cut to one line; the full
                          // value is in the title, so rows stay one line high and scannable.
                          title={LONG_COLUMNS.has(i) ? value : undefined}
                          sx={{
                            whiteSpace: 'nowrap',
                            fontSize: '0.8rem',
                            ...(LONG_COLUMNS.has(i) && { maxWidth: 240, overflow: 'hidden', textOverflow: 'ellipsis' }),
                          }}
                        >
                          {value}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={logs.data.total}
            page={page}
            rowsPerPage={rowsPerPage}
            rowsPerPageOptions={[...AUDIT_PAGE_SIZE_OPTIONS]}
            onPageChange={(_e, p) => setPage(p)}
            onRowsPerPageChange={(e) => {
              setRowsPerPage(Number(e.target.value));
              setPage(0);
            }}
            showFirstButton
            showLastButton
          />
        </Paper>
      )}
    </Box>
  );
}
