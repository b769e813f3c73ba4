import { Box, Button, Stack, TableCell, TableRow } from '@mui/material';
import { AdminTexts, Labels, Toasts, UsersTableColumns, type AdminUser } from '@rpm/contracts';
import { useSnackbar } from 'notistack';
import { DataTable, ListStates, PageHeader } from '../../components/table-states.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useUserAction, useUsers, type UserAction } from './api.ts';

const SUCCESS: Record<UserAction, string> = {
  'resend-invite': Toasts.inviteResent,
  enable: Toasts.userEnabled,
  disable: Toasts.userDisabled,
};

/** /users: every staff account with its user-pool status, and the admin actions on it. */
export default function UsersPage() {
  const users = useUsers();
  const action = useUserAction();
  const { enqueueSnackbar } = useSnackbar();
  const { timezone } = useTimezone();

  const run = (user: AdminUser, kind: UserAction) =>
    action.mutate(
      { id: user.id, action: kind },
      {
        onSuccess: () => enqueueSnackbar(SUCCESS[kind], { variant: 'success' }),
        onError: (err) => enqueueSnackbar(errorMessage(err, Toasts.requestFailed), { variant: 'error' }),
      },
    );
  const busy = (user: AdminUser) => action.isPending && action.variables?.id === user.id;

  return (
    <Box>
      <PageHeader title={AdminTexts.usersTitle} />
      <ListStates query={users} errorFallback={AdminTexts.failedToLoadUsers} emptyText={AdminTexts.noUsers}>
        {(list) => (
          <DataTable label={AdminTexts.usersTitle} columns={UsersTableColumns}>
            {list.map((u) => (
              <TableRow key={u.id} hover data-testid={`user-row-${u.id}`}>
                <TableCell>{u.id}</TableCell>
                <TableCell>{u.email}</TableCell>
                <TableCell>{u.role}</TableCell>
                <TableCell>{u.cognito_status ?? ''}</TableCell>
                <TableCell>{u.status}</TableCell>
                <TableCell>{formatTimestamp(u.created_at, timezone)}</TableCell>
                <TableCell>{formatTimestamp(u.updated_at, timezone)}</TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1} role="group" aria-label={`${AdminTexts.userActions} ${u.email}`}>
                    <Button size="small" disabled={busy(u)} onClick={() => run(u, 'resend-invite')}>
                      {Labels.resendInvite}
                    </Button>
                    {u.status === 'active' ? (
                      <Button size="small" color="error" disabled={busy(u)} onClick={() => run(u, 'disable')}>
                        {Labels.disable}
                      </Button>
                    ) : (
                      <Button size="small" color="success" disabled={busy(u)} onClick={() => run(u, 'enable')}>
                        {Labels.enable}
                      </Button>
                    )}
                  </Stack>
                </TableCell>
              </TableRow>
            ))}
          </DataTable>
        )}
      </ListStates>
    </Box>
  );
}
