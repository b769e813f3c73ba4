import { NotBuilt } from '../../components/not-built.tsx';

export default function LoginPage() {
  return <NotBuilt title="Sign in" />;
}
