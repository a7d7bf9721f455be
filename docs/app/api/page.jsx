import { ApiReference } from '../../components/ApiReference.jsx';

export const metadata = { title: 'REST API Docs' };

export default function ApiPage() {
  return <ApiReference />;
}
