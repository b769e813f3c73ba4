import { Box, Typography } from '@mui/material';
import { EhrLaunchErrors, EhrLaunchTexts } from '@rpm/contracts';
import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/errors.ts';
import { resolveLaunch } from '../../api/ehr-launch/resolve-launch.ts';
import { LoadingState } from '../../components/loading-state.tsx';
import { MessagePage } from '../../components/message-page.tsx';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { clearReturnTo, rememberReturnTo } from '../../lib/auth/return-to.ts';

/**
 * Where the server sends the browser after an EHR launch: once the clinician is signed in (the
 * sign-in page brings them back here), the launch is resolved to the portal patient and their
 * page replaces this one. A launch is used once, so it is asked for once per page.
 */
export default function LaunchCompletePage() {
  const { status, user, expired } = useAuth();
  const { pathname, search } = useLocation();
  if (status === 'loading') return <LoadingState py={6} />;
  if (!user) {
    if (expired) return null;
    rememberReturnTo(`${pathname}${search}`);
    return <Navigate to={paths.login} replace />;
  }
  return <ResolveLaunch />;
}

function ResolveLaunch() {
  const [params] = useSearchParams();
  const launch = params.get('launch') ?? '';
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(launch ? null : EhrLaunchErrors.expired);
  const asked = useRef<string | null>(null);

  useEffect(() => {
    // Arrived signed in: the sign-in page need not bring anyone back here again.
    clearReturnTo();
    if (!launch || asked.current === launch) return;
    asked.current = launch;
    resolveLaunch(launch).then(
      ({ patient_id }) => navigate(paths.patient(patient_id), { replace: true }),
      (err: unknown) =>
        setProblem(
          // A launch id the server refuses as malformed is not one it issued (a cut or edited
          // address): to the clinician that is a launch to start again from the EHR.
          err instanceof ApiError && err.status === 400
            ? EhrLaunchErrors.expired
            : errorMessage(err, EhrLaunchErrors.launchFailed),
        ),
    );
  }, [launch, navigate]);

  if (problem) return <MessagePage title={EhrLaunchTexts.title} body={problem} back={{ label: EhrLaunchTexts.back, to: paths.patients }} />;
  return (
    <Box sx={{ py: 6 }}>
      <LoadingState py={2} />
      <Typography align="center" color="text.secondary">
        {EhrLaunchTexts.resolving}
      </Typography>
    </Box>
  );
}
