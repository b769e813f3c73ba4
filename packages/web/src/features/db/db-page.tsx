import {
  Alert,
  Box,
  CircularProgress,
  FormControl,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import {
  AdminTexts,
  DbSchemaColumns,
  Labels,
  type DbSampleResponse,
  type DbSchemaResponse,
  type DbTablesResponse,
} from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiGet, errorMessage } from '../../lib/api-client.ts';

/** One cell of a sample row: booleans as true/false (spec section 2), objects as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function Loading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }} role="status" aria-label="Loading">
      <CircularProgress />
    </Box>
  );
}

/** /db: a read-only look at the portal's own tables; secret-looking columns are withheld. */
export default function DbPage() {
  const [table, setTable] = useState('');
  const tables = useQuery({ queryKey: ['db', 'tables'], queryFn: () => apiGet<DbTablesResponse>('/api/db/tables') });
  const schema = useQuery({
    queryKey: ['db', 'schema', table],
    queryFn: () => apiGet<DbSchemaResponse>(`/api/db/schema/${encodeURIComponent(table)}`),
    enabled: table !== '',
  });
  const sample = useQuery({
    queryKey: ['db', 'sample', table],
    queryFn: () => apiGet<DbSampleResponse>(`/api/db/sample/${encodeURIComponent(table)}`),
    enabled: table !== '',
  });

  return (
    <Box>
      <Typography variant="h4" component="h1" gutterBottom>
        {AdminTexts.dbTitle}
      </Typography>
      {tables.isPending ? (
        <Loading />
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
          {schema.isPending ? (
            <Loading />
          ) : schema.isError ? (
            <Alert severity="error">{errorMessage(schema.error, AdminTexts.failedToLoadTable)}</Alert>
          ) : (
            <>
              <TableContainer component={Paper} sx={{ mb: 1 }}>
                <Table size="small" aria-label={Labels.schema}>
                  <TableHead>
                    <TableRow>
                      {DbSchemaColumns.map((c) => (
                        <TableCell key={c}>{c}</TableCell>
                      ))}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {schema.data.columns.map((c) => (
                      <TableRow key={c.name}>
                        <TableCell>{c.name}</TableCell>
                        <TableCell>{c.type}</TableCell>
                        <TableCell>{cellText(c.nullable)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
              {schema.data.withheld.length > 0 && (
                <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
                  {AdminTexts.withheldColumns}: {schema.data.withheld.join(', ')}
                </Typography>
              )}
            </>
          )}

          <Typography variant="h5" component="h2" gutterBottom sx={{ mt: 2 }}>
            {Labels.sampleRows}
          </Typography>
          {sample.isPending ? (
            <Loading />
          ) : sample.isError ? (
            <Alert severity="error">{errorMessage(sample.error, AdminTexts.failedToLoadTable)}</Alert>
          ) : sample.data.rows.length === 0 ? (
            <Typography color="text.secondary">{AdminTexts.noRows}</Typography>
          ) : (
            <TableContainer component={Paper}>
              <Table size="small" aria-label={Labels.sampleRows}>
                <TableHead>
                  <TableRow>
                    {sample.data.columns.map((c) => (
                      <TableCell key={c}>{c}</TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {sample.data.rows.map((row, i) => (
                    <TableRow key={i}>
                      {sample.data.columns.map((c) => (
                        <TableCell key={c} sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>
                          {cellText(row[c])}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </>
      )}
    </Box>
  );
}
