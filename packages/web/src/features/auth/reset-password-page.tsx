import { NotBuilt } from '../../components/not-built.tsx';

export default function ResetPasswordPage() {
  return <NotBuilt title="Reset password" />;
}
