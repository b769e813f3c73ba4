import { NotBuilt } from '../../components/not-built.tsx';

export default function ProfilePage() {
  return <NotBuilt title="Profile" />;
}
