import { NotBuilt } from '../../components/not-built.tsx';

export default function UsersPage() {
  return <NotBuilt title="Users" />;
}
