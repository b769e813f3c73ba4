import { NotBuilt } from '../../components/not-built.tsx';

export default function PatientsPage() {
  return <NotBuilt title="Patients" />;
}
