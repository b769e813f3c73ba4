import { NotBuilt } from '../../components/not-built.tsx';

export default function DbPage() {
  return <NotBuilt title="Database inspector" />;
}
