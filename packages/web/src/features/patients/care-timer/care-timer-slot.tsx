import { lazy, Suspense } from 'react';
import { useUserScope } from '../../../api/scope.ts';
import { useAuth } from '../../../lib/auth/auth-context.tsx';

// The timer's code loads after the page's first screen (the page keeps its first-load budget).
const CareTimerPanel = lazy(() => import('./care-timer.tsx'));

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
  return (
    <Suspense fallback={null}>
      <CareTimerPanel
        userId={userId}
        patientId={patientId}
        organizationId={organizationId}
        isProvider={user?.role === 'provider'}
      />
    </Suspense>
  );
}
