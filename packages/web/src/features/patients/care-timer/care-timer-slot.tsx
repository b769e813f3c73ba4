import { lazy } from 'react';
import { useUserScope } from '../../../api/scope.ts';
import { useAuth } from '../../../lib/auth/auth-context.tsx';

// The timer's code is built into the record's own chunk (see vite.config.ts), so it is there with
// the page and the import() answers at once (it was one more round trip). Revealed later, the panel
// pushed the whole page below it down (Lighthouse counted a layout shift of 0.6 on a phone).
const loadCareTimer = () => import('./care-timer.tsx');
const careTimerCode = loadCareTimer();
careTimerCode.catch(() => {});
const CareTimerPanel = lazy(() => careTimerCode.catch(loadCareTimer));

interface SlotProps {
  patientId: number;
  organizationId: number | null;
}

/** The care timer on a patient's page, for the signed-in user (nothing when nobody is). */
export function CareTimerSlot(props: SlotProps) {
  const [, userId] = useUserScope();
  if (userId === null) return null;
  return <SignedInCareTimer key={`${userId}.${props.patientId}`} userId={userId} {...props} />;
}

function SignedInCareTimer({ userId, patientId, organizationId }: SlotProps & { userId: number }) {
  const { user } = useAuth();
  // No boundary of its own: until the code is there, the page's loading state stands (the panel
  // appearing later pushed the page below it down).
  return (
    <CareTimerPanel userId={userId} patientId={patientId} organizationId={organizationId} isProvider={user?.role === 'provider'} />
  );
}
