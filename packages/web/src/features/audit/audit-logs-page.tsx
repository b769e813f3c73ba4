import { NotBuilt } from '../../components/not-built.tsx';

export default function AuditLogsPage() {
  return <NotBuilt title="Audit Logs" />;
}
