import {
  Alert,
  Box,
  Button,
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import {
  AUDIT_PAGE_SIZE,
  AUDIT_PAGE_SIZE_OPTIONS,
  AdminTexts,
  AuditLogColumns,
  Toasts,
  type AuditLog,
} from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useEffect, useRef, useState } from 'react';
import { WRAPPING_PAGER_SX } from '../../components/pager-sx.ts';
import { usePagerSelect } from '../../components/pager-select.ts';
import { LoadingState, PageHeader } from '../../components/table-states.tsx';
import { useAuditLogs } from '../../api/audit/get-audit-logs.ts';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';

/**
 * Column widths (percent of the table) chosen so that the twelve columns fit a 1280 px screen
 * beside the sidebar: values stay on one line, cut with an ellipsis, the full value in the title.
 */
const WIDTHS = [12, 5, 9, 11, 8, 6, 13, 6, 7, 8, 8, 7];
/**
 * Narrower screens scroll the table sideways rather than shrink it below the width it has at
 * 1280 px: at 900 px a phone cut every timestamp to its date ("2026-11-27 20:…").
 */
const AUDIT_TABLE_MIN_WIDTH = 1000;

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
  const pagerSelect = usePagerSelect();
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState<number>(AUDIT_PAGE_SIZE);
  const { enqueueSnackbar } = useSnackbar();
  const { timezone } = useTimezone();
  // Reading the log writes to it: pages after the first are read as the log stood at the first
  // answer (its `snapshot`), so browsing neither shifts rows nor grows the total.
  const snapshot = useRef<number | undefined>(undefined);
  const [epoch, setEpoch] = useState(0);
  const logs = useAuditLogs(epoch, rowsPerPage, page, snapshot);
  const showNewest = () => {
    snapshot.current = undefined;
    setPage(0);
    setEpoch((e) => e + 1);
  };

  useEffect(() => {
    if (logs.isError) enqueueSnackbar(Toasts.failedToLoadLogs, { variant: 'error' });
  }, [logs.isError, enqueueSnackbar]);

  return (
    <Box>
      <PageHeader title={AdminTexts.auditLogsTitle} />
      <Box
        sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 1, flexWrap: 'wrap' }}
      >
        <Typography variant="body2" color="text.secondary">
          {AdminTexts.auditSnapshotNote}
        </Typography>
        <Button size="small" onClick={showNewest}>
          {AdminTexts.auditShowNewest}
        </Button>
      </Box>
      {logs.isPending ? (
        <LoadingState />
      ) : logs.isError && !logs.data ? (
        <Alert severity="error">{Toasts.failedToLoadLogs}</Alert>
      ) : (
        <Paper>
          {logs.isFetching && <LinearProgress aria-label="Loading" />}
          {/* Focusable and named: on narrow screens it scrolls, and keyboards must reach that. */}
          <TableContainer sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={AdminTexts.auditLogsTitle}>
            <Table
              size="small"
              aria-label={AdminTexts.auditLogsTitle}
              // Fixed layout: the widths below hold whatever the values; narrower screens scroll
              // inside this container rather than squeezing words apart.
              sx={{ tableLayout: 'fixed', width: '100%', minWidth: AUDIT_TABLE_MIN_WIDTH, '& th, & td': { px: 0.75 } }}
            >
              <colgroup>
                {WIDTHS.map((w, i) => (
                  <col key={AuditLogColumns[i]} style={{ width: `${w}%` }} />
                ))}
              </colgroup>
              <TableHead>
                <TableRow>
                  {AuditLogColumns.map((c) => (
                    // Headings may wrap between words, never inside one.
                    <TableCell
                      key={c}
                      sx={{ fontSize: '0.75rem', fontWeight: 600, lineHeight: 1.3, verticalAlign: 'bottom' }}
                    >
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
                          // One line per row, cut with an ellipsis; the full value (the raw UTC
                          // time for the timestamp) is in the title.
                          title={i === 0 ? log.timestamp : value || undefined}
                          sx={{
                            whiteSpace: 'nowrap',
                            overflow: 'hidden',
                            textOverflow: 'ellipsis',
                            fontSize: '0.75rem',
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
            sx={WRAPPING_PAGER_SX}
            slotProps={{ select: pagerSelect }}
          />
        </Paper>
      )}
    </Box>
  );
}
