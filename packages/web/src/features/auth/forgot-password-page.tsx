import { NotBuilt } from '../../components/not-built.tsx';

export default function ForgotPasswordPage() {
  return <NotBuilt title="Forgot password" />;
}
