import { NotBuilt } from '../../components/not-built.tsx';

export default function DevicesPage() {
  return <NotBuilt title="Devices" />;
}
