import { NotBuilt } from '../../components/not-built.tsx';

export default function OrganizationAddPage() {
  return <NotBuilt title="Add organization" />;
}
