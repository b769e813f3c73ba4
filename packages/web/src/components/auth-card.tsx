import { Box, Link, Paper, TextField, Typography } from '@mui/material';
import { AuthLabels, Validation, isValidEmail } from '@rpm/contracts';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../app/paths.ts';
import { helperLine } from './helper-text.ts';

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

interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  /** Told the field's own check as the user leaves it: the message, or null when it is fine. */
  onValidate?: (error: string | null) => void;
  autoFocus?: boolean;
}

/** The sign-in email: filled in as the user name by password managers. */
export function EmailField({ value, onChange, error, onValidate, autoFocus }: EmailFieldProps) {
  return (
    <TextField
      label={AuthLabels.email}
      type="email"
      autoComplete="username"
      autoFocus={autoFocus}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      // An untouched empty field says nothing yet; the submit check covers it.
      onBlur={onValidate && (() => onValidate(value.trim() && !isValidEmail(value) ? Validation.email : null))}
      error={!!error}
      helperText={helperLine(error)}
      fullWidth
    />
  );
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
