import { NotBuilt } from '../../components/not-built.tsx';

export default function RegisterPage() {
  return <NotBuilt title="Register user" />;
}
