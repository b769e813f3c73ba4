import { NotBuilt } from '../../components/not-built.tsx';

export default function DeviceAddPage() {
  return <NotBuilt title="Add device" />;
}
