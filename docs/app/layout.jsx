import { Footer, Layout, Navbar } from 'nextra-theme-docs';
import { Banner, Head, Search } from 'nextra/components';
import { getPageMap } from 'nextra/page-map';
import 'nextra-theme-docs/style.css';
import './global.css';
import { Logo } from '../components/Logo.jsx';
import { NavigationProgress } from '../components/NavigationProgress.jsx';
import { EDIT_BASE } from '../content/pages.mjs';

export const metadata = {
  title: { default: 'Pipewright developer docs', template: '%s – Pipewright' },
  description:
    'Developer documentation for Pipewright, the open production-pipeline server for VFX and animation studios.',
};

// Static hosts serve /x.html and /x/index.html as well as /x. Send every such address to the bare path before the
// app starts, so links, the sidebar and search all see one canonical URL. Runs in <head>, so also on the 404 page.
const normalisePath = `(function(){var p=location.pathname;var m=/^(.*?)(?:\\/index)?\\.html$/.exec(p);if(!m)return;var b=m[1]||'/';if(b.length>1&&b.endsWith('/'))b=b.slice(0,-1);location.replace(b+location.search+location.hash);})();`;

export default async function RootLayout({ children }) {
  const navbar = (
    <Navbar logo={<Logo />} logoLink="/" projectLink="https://github.com/pipewright/pipewright" />
  );
  const footer = (
    <Footer>
      <div className="pw-footer">
        <p>
          Pipewright {new Date().getFullYear()} · MIT licensed · Developer documentation for the open pipeline
          server for VFX and animation studios.
        </p>
        <p style={{ marginTop: '0.5rem', opacity: 0.8 }}>
          Docs: <a href="/docs/dev_introduction">Dev Docs</a> · <a href="/api">REST API</a> ·{' '}
          <a href="/features/">Features</a> · <a href="/search">Search</a> · Community:{' '}
          <a href="https://github.com/pipewright/pipewright/discussions">GitHub discussions ↗</a>
        </p>
      </div>
    </Footer>
  );
  return (
    <html lang="en" dir="ltr" suppressHydrationWarning>
      <Head color={{ hue: 164, saturation: 100, lightness: { light: 32, dark: 42 } }}>
        <script dangerouslySetInnerHTML={{ __html: normalisePath }} />
      </Head>
      <body>
        <NavigationProgress />
        <Layout
          banner={
            <Banner storageKey="pw-banner-graphql-2026-11">
              GraphQL is served now, with an offline explorer at /graphiql —{' '}
              <a href="/docs/dev_api_graphql">read the guide</a>.
            </Banner>
          }
          navbar={navbar}
          pageMap={await getPageMap()}
          docsRepositoryBase={EDIT_BASE}
          editLink="Edit this page"
          feedback={{ content: null }}
          footer={footer}
          nextThemes={{ defaultTheme: 'dark', storageKey: 'theme' }}
          sidebar={{ defaultMenuCollapseLevel: 1, toggleButton: true }}
          search={
            <Search
              placeholder="Search docs…"
              emptyResult={
                <span className="pw-search-empty">
                  No results for this search. Try fewer or different words.
                </span>
              }
              errorText={
                <span>Unable to fetch results. You might want to check your network connection.</span>
              }
            />
          }
          toc={{ float: true, title: 'On this page' }}
        >
          {children}
        </Layout>
      </body>
    </html>
  );
}
