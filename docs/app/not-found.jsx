import { NotFoundPage } from 'nextra-theme-docs';

export const metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <NotFoundPage content="Report a broken link" labels="broken-link">
      <h1 className="pw-notfound-title">Page not found</h1>
      <p>
        We could not find what you were looking for. The address may be mistyped, or the page may have moved.
      </p>
      <p>
        Start again from the <a href="/docs/dev_introduction">developer introduction</a> or{' '}
        <a href="/search">search the docs</a>.
      </p>
    </NotFoundPage>
  );
}
