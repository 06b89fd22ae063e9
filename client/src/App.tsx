import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes, useLocation, useParams } from 'react-router-dom';
import { Footer } from './components/Footer/Footer.tsx';
import { Header } from './components/Header/Header.tsx';
import { PageErrorBoundary } from './components/PageError/PageErrorBoundary.tsx';
import { Toasts } from './components/Toasts.tsx';
import { toolForRoute } from './pages/tool-route.ts';

// Every page loads on demand; the fallback is empty, as the specification says.
const HomePage = lazy(() => import('./pages/Home/HomePage.tsx'));
const IntroPage = lazy(() => import('./pages/Intro/IntroPage.tsx'));
const ToolPage = lazy(() => import('./pages/Tool/ToolPage.tsx'));
const HistoryPage = lazy(() => import('./pages/History/HistoryPage.tsx'));
const LeaderboardPage = lazy(() => import('./pages/Leaderboard/LeaderboardPage.tsx'));
const NotFoundPage = lazy(() => import('./pages/NotFound/NotFoundPage.tsx'));
const SharePage = lazy(() => import('./pages/Share/SharePage.tsx'));
// The operators' console: its code (and its strings) load only on /admin.
const AdminConsole = lazy(() => import('./pages/Admin/AdminConsole.tsx'));

export function App() {
  return (
    <BrowserRouter>
      <Header />
      <main id="main">
        <Pages />
      </main>
      <Footer />
      <Toasts />
    </BrowserRouter>
  );
}

/**
 * A tool's page, or its history, only for a tool's own route: any other `/:contentTitle` is the
 * 404 image at once, without first loading the tool page's code to find out.
 */
function ToolRoute({ history = false }: { history?: boolean }) {
  const { contentTitle } = useParams();
  if (!toolForRoute(contentTitle)) return <NotFoundPage />;
  return history ? <HistoryPage /> : <ToolPage />;
}

/** The page for the address; one that throws is replaced by a message until the address changes. */
function Pages() {
  const { pathname } = useLocation();
  return (
    <PageErrorBoundary resetKey={pathname}>
      <Suspense fallback={null}>
        <Routes>
          <Route path="/" element={<HomePage />} />
          <Route path="/main" element={<IntroPage />} />
          <Route path="/history/:contentTitle" element={<ToolRoute history />} />
          <Route path="/leaderboard" element={<LeaderboardPage />} />
          <Route path="/b/:id" element={<SharePage />} />
          <Route path="/admin/*" element={<AdminConsole />} />
          <Route path="/:contentTitle" element={<ToolRoute />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </PageErrorBoundary>
  );
}
