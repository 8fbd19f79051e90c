import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import './globals.css';
import { Providers } from './providers';

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
