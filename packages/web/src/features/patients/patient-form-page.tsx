import { NotBuilt } from '../../components/not-built.tsx';

export default function PatientFormPage() {
  return <NotBuilt title="Add Patient" />;
}
