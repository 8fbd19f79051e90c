import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import './globals.css';
import { Providers } from './providers';
import { viewerFor } from '@/lib/auth/viewer';
import { authConfigured } from '@/lib/config';

// Every page renders per request: its scripts carry the request's CSP nonce (proxy.ts), which a prerendered page cannot.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: { default: 'Hopscope', template: '%s · Hopscope' },
  description: 'A workbench for knowledge-graph grounded biomedical reasoning',
  // Served from public/: /favicon.ico for browsers that ask for it by name, the SVG for the rest.
  icons: {
    icon: [
      { url: '/favicon.ico', sizes: '16x16 32x32 48x48' },
      { url: '/favicon.svg', type: 'image/svg+xml' },
    ],
    apple: '/apple-touch-icon.png',
  },
  manifest: '/site.webmanifest',
};

/** With sign-in on (AUTH_SECRET): who is signed in and the way out, or the way in. */
async function Account() {
  if (!authConfigured()) return null;
  const viewer = await viewerFor().catch(() => null);
  return (
    <span className="ml-auto text-slate-700" data-testid="account">
      {viewer?.user ? (
        <>
          {viewer.user.email} ·{' '}
          <a href="/api/auth/signout" className="text-blue-800 hover:underline">
            Sign out
          </a>
        </>
      ) : (
        <a href="/api/auth/signin" className="text-blue-800 hover:underline">
          Sign in
        </a>
      )}
    </span>
  );
}

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans antialiased">
        <header className="border-b border-slate-200 bg-white">
          <nav className="mx-auto flex max-w-7xl items-center gap-6 px-4 py-3 text-sm" aria-label="Main">
            <Link href="/" className="text-base font-semibold text-slate-900">
              Hopscope
            </Link>
            <Link href="/" className="text-slate-700 hover:text-slate-900">
              Ask
            </Link>
            <Link href="/kg" className="text-slate-700 hover:text-slate-900">
              Knowledge graph
            </Link>
            <Link href="/eval" className="text-slate-700 hover:text-slate-900">
              Evaluation
            </Link>
            <Account />
            <Link href="/reproduce" className="text-slate-700 hover:text-slate-900">
              Reproduce
            </Link>
          </nav>
        </header>
        <Providers>
          <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
