import { NotBuilt } from '../../components/not-built.tsx';

export default function PatientDetailPage() {
  return <NotBuilt title="Patient" />;
}
