import { Box, Button, Stack, TableCell, TableRow, Typography } from '@mui/material';
import { AdminTexts, Labels, Toasts, UserActionConfirmations, UsersTableColumns, type AdminUser } from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { DataTable, ListStates, PageHeader } from '../../components/table-states.tsx';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { errorMessage } from '../../api/errors.ts';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useUsers } from '../../api/users/get-users.ts';
import { useUserAction, type UserAction } from '../../api/users/user-action.ts';

const SUCCESS: Record<UserAction, string> = {
  'resend-invite': Toasts.inviteResent,
  enable: Toasts.userEnabled,
  disable: Toasts.userDisabled,
  'reset-mfa': Toasts.mfaReset,
};

/** The pool status of someone invited who has not chosen a password yet. */
const INVITED = 'FORCE_CHANGE_PASSWORD';

/** /users: every staff account with its user-pool status, and the admin actions on it. */
export default function UsersPage() {
  const { user } = useAuth();
  return <UsersList currentUserId={user?.id ?? null} />;
}

/**
 * The list and its actions. Each action asks first; the signed-in admin's own row offers no
 * Disable, Resend Invite shows only to the invited, Reset MFA only where MFA is on.
 */
export function UsersList({ currentUserId }: { currentUserId: number | null }) {
  const users = useUsers();
  const action = useUserAction();
  const { enqueueSnackbar } = useSnackbar();
  const { timezone } = useTimezone();
  // The target outlives `open`, so the dialog keeps its text while it fades out.
  const [target, setTarget] = useState<{ user: AdminUser; kind: UserAction } | null>(null);
  const [open, setOpen] = useState(false);

  const run = (user: AdminUser, kind: UserAction) =>
    action.mutate(
      { id: user.id, action: kind },
      {
        onSuccess: () => enqueueSnackbar(SUCCESS[kind], { variant: 'success' }),
        onError: (err) => enqueueSnackbar(errorMessage(err, Toasts.requestFailed), { variant: 'error' }),
        onSettled: () => setOpen(false),
      },
    );
  const busy = (user: AdminUser) => action.isPending && action.variables?.id === user.id;
  const ask = (user: AdminUser, kind: UserAction) => {
    setTarget({ user, kind });
    setOpen(true);
  };
  const confirmation = target ? UserActionConfirmations[target.kind] : null;

  return (
    <Box>
      <PageHeader title={AdminTexts.usersTitle} />
      <ListStates query={users} errorFallback={AdminTexts.failedToLoadUsers} emptyText={AdminTexts.noUsers}>
        {(list) => (
          <DataTable label={AdminTexts.usersTitle} columns={UsersTableColumns} stackOnPhone>
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
                    {u.cognito_status === INVITED && (
                      <Button size="small" disabled={busy(u)} onClick={() => ask(u, 'resend-invite')}>
                        {Labels.resendInvite}
                      </Button>
                    )}
                    {u.mfa_enabled && (
                      <Button size="small" disabled={busy(u)} onClick={() => ask(u, 'reset-mfa')}>
                        {Labels.resetMfa}
                      </Button>
                    )}
                    {u.status !== 'active' ? (
                      <Button size="small" color="success" disabled={busy(u)} onClick={() => ask(u, 'enable')}>
                        {Labels.enable}
                      </Button>
                    ) : u.id !== currentUserId ? (
                      <Button size="small" color="error" disabled={busy(u)} onClick={() => ask(u, 'disable')}>
                        {Labels.disable}
                      </Button>
                    ) : null}
                  </Stack>
                </TableCell>
              </TableRow>
            ))}
          </DataTable>
        )}
      </ListStates>
      <ConfirmDialog
        open={open}
        title={confirmation?.title ?? ''}
        body={
          <>
            <Typography component="span" sx={{ display: 'block', fontWeight: 600, mb: 1 }}>
              {target?.user.email}
            </Typography>
            {confirmation?.body}
          </>
        }
        confirmLabel={confirmation?.confirm ?? ''}
        destructive={target?.kind === 'disable' || target?.kind === 'reset-mfa'}
        pending={action.isPending}
        onConfirm={() => target && run(target.user, target.kind)}
        onCancel={() => setOpen(false)}
      />
    </Box>
  );
}
