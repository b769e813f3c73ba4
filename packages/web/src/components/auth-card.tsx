import { Box, Link, Paper, Typography } from '@mui/material';
import { AuthLabels } from '@rpm/contracts';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../config/paths.ts';
import { OutlinedField, type OutlinedFieldProps } from './outlined-field.tsx';

/** The centred card the signed-out pages (sign in, forgot and reset password) are built in. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', pt: { xs: 2, sm: 6 } }}>
      <Paper sx={{ p: 4, width: '100%', maxWidth: 420 }} variant="outlined">
        <Typography variant="h4" component="h1" gutterBottom>
          {title}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}

/**
 * The sign-in email: filled in as the user name by password managers. Its value, check and
 * message come from the form it is in.
 */
export function EmailField(props: Omit<OutlinedFieldProps, 'label' | 'type'>) {
  return <OutlinedField label={AuthLabels.email} type="email" autoComplete="username" fullWidth {...props} />;
}

/** The e-mail another sign-in page handed over in the router state (never in the address). */
export function handedOverEmail(state: unknown): string {
  if (state && typeof state === 'object' && 'email' in state && typeof state.email === 'string') return state.email;
  return '';
}

/** The way back to the sign-in page from the password pages. */
export function BackToLoginLink() {
  return (
    <Link component={RouterLink} to={paths.login}>
      {AuthLabels.backToLogin}
    </Link>
  );
}
