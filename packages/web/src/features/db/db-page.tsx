import {
  Alert,
  Box,
  FormControl,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  TableCell,
  TableContainer,
  TableRow,
  Typography,
  type SxProps,
  type Theme,
} from '@mui/material';
import { AdminTexts, DbSchemaColumns, Labels } from '@rpm/contracts';
import { useState, type ReactNode } from 'react';
import { DataTable, LoadingState, PageHeader, QueryStates } from '../../components/table-states.tsx';
import { useDbSample } from '../../api/db/get-db-sample.ts';
import { useDbSchema } from '../../api/db/get-db-schema.ts';
import { useDbTables } from '../../api/db/get-db-tables.ts';
import { errorMessage } from '../../api/errors.ts';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';

/** One cell of a sample row: booleans as true/false (spec section 2), objects as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** An ISO 8601 timestamp as the API sends them (`2026-01-02T03:04:05.000Z`, or with an offset). */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** What a sample cell shows: timestamps in the portal's one format and the chosen time zone. */
export function sampleCellText(value: unknown, timezone: string): string {
  if (typeof value === 'string' && ISO_TIMESTAMP.test(value)) return formatTimestamp(value, timezone);
  return cellText(value);
}

/** A card the table scrolls in; focusable and named, so a keyboard can scroll it too. */
function ScrollRegion({ label, sx, children }: { label: string; sx?: SxProps<Theme>; children: ReactNode }) {
  return (
    <TableContainer component={Paper} tabIndex={0} role="region" aria-label={label} sx={sx}>
      {children}
    </TableContainer>
  );
}

/** /db: a read-only look at the portal's own tables; secret-looking columns are withheld. */
export default function DbPage() {
  const { timezone } = useTimezone();
  const [table, setTable] = useState('');
  const tables = useDbTables();
  const schema = useDbSchema(table);
  const sample = useDbSample(table);

  return (
    <Box>
      <PageHeader title={AdminTexts.dbTitle} />
      {tables.isPending ? (
        <LoadingState py={3} />
      ) : tables.isError ? (
        <Alert severity="error">{errorMessage(tables.error, AdminTexts.failedToLoadTables)}</Alert>
      ) : (
        <FormControl sx={{ minWidth: 280, mb: 3 }}>
          <InputLabel id="db-table-label" shrink>
            {AdminTexts.table}
          </InputLabel>
          <Select
            labelId="db-table-label"
            id="db-table"
            label={AdminTexts.table}
            value={table}
            displayEmpty
            notched
            onChange={(e) => setTable(e.target.value)}
            renderValue={(v) => (v ? v : <em>{Labels.selectATable}</em>)}
          >
            <MenuItem value="" disabled>
              <em>{Labels.selectATable}</em>
            </MenuItem>
            {tables.data.tables.map((t) => (
              <MenuItem key={t} value={t}>
                {t}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      )}

      {table !== '' && (
        <>
          <Typography variant="h5" component="h2" gutterBottom>
            {Labels.schema}
          </Typography>
          <QueryStates query={schema} errorFallback={AdminTexts.failedToLoadTable} loading={<LoadingState py={3} />}>
            {(data) => (
              <>
                <ScrollRegion label={Labels.schema} sx={{ mb: 1 }}>
                  <DataTable label={Labels.schema} columns={DbSchemaColumns} contained={false}>
                    {data.columns.map((c) => (
                      <TableRow key={c.name}>
                        <TableCell>{c.name}</TableCell>
                        <TableCell>{c.type}</TableCell>
                        <TableCell>{cellText(c.nullable)}</TableCell>
                      </TableRow>
                    ))}
                  </DataTable>
                </ScrollRegion>
                {data.withheld.length > 0 && (
                  <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
                    {AdminTexts.withheldColumns}: {data.withheld.join(', ')}
                  </Typography>
                )}
              </>
            )}
          </QueryStates>

          <Typography variant="h5" component="h2" gutterBottom sx={{ mt: 2 }}>
            {Labels.sampleRows}
          </Typography>
          <QueryStates
            query={sample}
            errorFallback={AdminTexts.failedToLoadTable}
            loading={<LoadingState py={3} />}
            emptyText={AdminTexts.noRows}
            isEmpty={(data) => data.rows.length === 0}
          >
            {(data) => (
              <ScrollRegion label={Labels.sampleRows} sx={{ '& th': { whiteSpace: 'nowrap' } }}>
                <DataTable label={Labels.sampleRows} columns={data.columns} contained={false}>
                  {data.rows.map((row, i) => (
                    <TableRow key={i}>
                      {data.columns.map((c) => (
                        // One line per cell, never broken inside a word: long values end in an
                        // ellipsis with the full value in the title; the table scrolls in its card.
                        <TableCell
                          key={c}
                          title={cellText(row[c]) || undefined}
                          sx={{ maxWidth: 240, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
                        >
                          {sampleCellText(row[c], timezone)}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </DataTable>
              </ScrollRegion>
            )}
          </QueryStates>
        </>
      )}
    </Box>
  );
}
