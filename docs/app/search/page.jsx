import { SearchPage } from '../../components/SearchPage.jsx';

export const metadata = { title: 'Search' };

export default function Search() {
  return <SearchPage />;
}
